import { translate } from '@coldwatch/contract';
import { scoped } from '../../platform/db/scoped.js';
import { localTime } from '../../modules/backup/sceneExport.js';
import { wallClock } from '../../modules/download/table.js';
import { page as exceptionPage, stepsOf } from '../../modules/exception/exception.repository.js';
import { aboutSheet, col, customerOf, dataScope, type Producer } from './context.js';

/*
 * Exception records of a span (the list's filters: carrier, status, category) with their
 * handling steps: the records on the first sheet, oldest first, and every signed step (who,
 * when, what, its meaning) on the second, each naming its exception's number. Read through the
 * exception module's repository, a page of 500 at a time.
 */

const PAGE = 500;

export const exportExceptions: Producer = async (ctx, out, format) => {
  const c = ctx.criteria as { start: number; end: number; carrierIds?: number[]; status?: number; category?: string };
  const scope = dataScope(ctx);
  const { name: customer, tz } = await customerOf(ctx, ctx.scope.customerIds?.[0] ?? 0).catch(() => ({ name: '', tz: '+08:00' }));
  const L = ctx.locale;
  const t = (k: string) => col(L, k, tz);
  const at = wallClock(tz);
  const cat = (k: string) => translate(`errors.backup.category.${k}`, L);
  const statusText = (s: number) => translate(`errors.backup.status.${s}`, L);
  out.sheet(translate('errors.export.sheet.exceptions', L), [t('id'), t('carrier'), t('device'), t('category'), t('start'), t('end'), t('duration'), t('peak'), t('status'), t('ongoing'), t('reason'), t('measures')], [8, 24, 14, 20, 20, 20, 12, 12, 12, 10, 30, 40]);
  const filter = { carrierId: c.carrierIds?.[0], status: c.status, category: c.category, startTime: c.start, endTime: c.end };
  const ids: number[] = [];
  let total = 0;
  for (let offset = 0; ; offset += PAGE) {
    ctx.checkpoint();
    const p = await exceptionPage(ctx.db, scope, { ...filter, iDisplayStart: offset, iDisplayLength: PAGE });
    const rows = p.rows as unknown as Record<string, unknown>[];
    for (const e of rows) {
      ids.push(Number(e.id));
      const start = Number(e.startTs);
      const end = e.endTs === null || e.endTs === undefined ? null : Number(e.endTs);
      out.row([
        Number(e.id), (e.carrierName as string) ?? '', (e.devNo as string) ?? '', cat(String(e.category)), at(start), at(end),
        end === null ? null : Math.round((end - start) / 60_000), (e.peakValue as number | null) ?? null, statusText(Number(e.status)), e.ongoing ? t('yes') : t('no'), (e.reason as string) ?? '', (e.measures as string) ?? '',
      ]);
    }
    total += rows.length;
    ctx.progress(Math.min(0.5, total / Math.max(1, p.total) / 2));
    await out.breathe();
    if (rows.length < PAGE) break;
  }
  out.sheet(translate('errors.export.sheet.handling', L), [t('exception'), t('action'), t('by'), t('at'), t('meaning'), t('reason'), t('measures'), t('judgement'), t('comment')], [10, 12, 16, 20, 12, 30, 40, 14, 40]);
  const k = scoped(ctx.db, scope);
  for (const [i, id] of ids.entries()) {
    for (const s of await stepsOf(k, id)) {
      out.row([id, s.action, s.userName || s.userAccount, at(s.signedAt), s.meaning ?? '', s.reason ?? '', s.measures ?? '', s.judgement ?? '', s.comment ?? '']);
    }
    if (i % 100 === 99) {
      ctx.checkpoint();
      ctx.progress(0.5 + (i / ids.length) / 2);
      await out.breathe();
    }
  }
  aboutSheet(ctx, out, format, tz, [
    ['customer', customer],
    ['subject', String(ctx.criteria.subject ?? '')],
    ['span', `${localTime(c.start, tz)} – ${localTime(c.end, tz)}`],
    ['rows', total],
  ]);
  return total;
};
