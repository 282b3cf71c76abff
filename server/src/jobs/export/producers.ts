import { sensorReadings, translate, type ExportFormat } from '@coldwatch/contract';
import { wallClock, type TableWriter } from '../../modules/download/table.js';
import { localTime } from '../../modules/backup/sceneExport.js';
import { readingPage, sensorInScope } from '../../modules/history/history.repository.js';
import { carrierExport, writeCarrierRows } from '../../modules/detaildata/detaildata.export.js';
import { exportExceptions } from './exceptions.js';
import { exportStatistics } from './statistic.js';
import { exportVerifyTask } from './verifyTask.js';
import { exportMonitorPoints } from './monitorPoints.js';
import { aboutSheet, col, customerOf, dataScope, READ_PAGE, READ_WINDOW_MS, type ExportContext, type Producer } from './context.js';

export type { ExportContext, Producer } from './context.js';

/*
 * What each kind of export writes (docs/exports.md "Kinds"). Every producer reads through the
 * repositories of its module, in the scope of the user who asked (its customers and scene limit
 * then), a page at a time: each page one short statement, then `breathe` lets the file's sink
 * and the rest of the process (ingest on PGlite's one connection) take their turn. Times are in
 * the data's customer's time zone, named in the header.
 */

const fixed = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** A device's raw readings (deviceNo) or a carrier's value (carrierIds of one), over the span. */
const history: Producer = async (ctx, out, format) => {
  const { start, end } = ctx.criteria as { start: number; end: number };
  const carrierId = (ctx.criteria.carrierIds as number[] | undefined)?.[0];
  if (carrierId) return carrierRows(ctx, out, format, carrierId);
  const sensor = await sensorInScope(ctx.db, dataScope(ctx), String(ctx.criteria.deviceNo));
  if (!sensor) throw new Error('errors.notFound');
  const { name: customer, tz } = await customerOf(ctx, sensor.customerId);
  const fields = sensorReadings(sensor.type).filter((f) => ['temp', 'hum', 'volt', 'rssi', 'gas', 'door'].includes(f)) as ('temp' | 'hum' | 'volt' | 'rssi' | 'gas' | 'door')[];
  out.sheet(`${translate('errors.export.sheet.history', ctx.locale)} ${sensor.devNo}`, [col(ctx.locale, 'time', tz), col(ctx.locale, 'device'), col(ctx.locale, 'carrier'), ...fields.map((f) => col(ctx.locale, f)), col(ctx.locale, 'state')], [20, 14, 24, ...fields.map(() => 14), 12]);
  const high = col(ctx.locale, 'high');
  const low = col(ctx.locale, 'low');
  const state = (t: number | null, h: number | null) =>
    (t !== null && sensor.tempMax !== null && t > sensor.tempMax) || (h !== null && sensor.humMax !== null && h > sensor.humMax)
      ? high
      : (t !== null && sensor.tempMin !== null && t < sensor.tempMin) || (h !== null && sensor.humMin !== null && h < sensor.humMin)
        ? low
        : null;
  const at = wallClock(tz);
  let rows = 0;
  let after: string | null = null;
  // Pages by key within windows of the span: see READ_WINDOW_MS.
  for (let to = start - 1; to < end; ) {
    to = Math.min(end, to + READ_WINDOW_MS);
    for (;;) {
      ctx.checkpoint();
      const page = await readingPage(ctx.db, sensor, start, to, after, READ_PAGE);
      for (const r of page) {
        out.row([at(r.ts), sensor.devNo, sensor.carrierName ?? '', ...fields.map((f) => (f === 'temp' || f === 'hum' || f === 'volt' || f === 'gas' ? fixed(r[f]) : r[f])), state(r.temp, r.hum)]);
      }
      rows += page.length;
      if (page.length) after = page[page.length - 1].at;
      await out.breathe();
      if (page.length < READ_PAGE) break;
    }
    ctx.progress((to - start + 1) / (end - start + 1));
  }
  aboutSheet(ctx, out, format, tz, [
    ['customer', customer],
    ['subject', `${sensor.devNo}${sensor.carrierName ? ` (${sensor.carrierName})` : ''}`],
    ['span', `${localTime(start, tz)} – ${localTime(end, tz)}`],
    ['rows', rows],
  ]);
  return rows;
};

/** One carrier's value over the span, as the detail data page shows it (excluded readings marked). */
async function carrierRows(ctx: ExportContext, out: TableWriter, format: ExportFormat, carrierId: number) {
  const { start, end } = ctx.criteria as { start: number; end: number };
  const x = await carrierExport(ctx.db, dataScope(ctx), carrierId, start, end);
  const rows = await writeCarrierRows(ctx.db, x, start, end, ctx.locale, out, (d) => (ctx.checkpoint(), ctx.progress(d)));
  const { name: customer } = await customerOf(ctx, x.carrier.customerId);
  aboutSheet(ctx, out, format, x.tz, [
    ['customer', customer],
    ['subject', x.carrier.name],
    ['span', `${localTime(start, x.tz)} – ${localTime(end, x.tz)}`],
    ['rows', rows],
  ]);
  return rows;
}

const detailData: Producer = (ctx, out, format) => carrierRows(ctx, out, format, (ctx.criteria.carrierIds as number[])[0]);

export const PRODUCERS: Record<string, Producer> = {
  history,
  detailData,
  exceptions: exportExceptions,
  statistic: exportStatistics,
  verifyTask: exportVerifyTask,
  monitorPoints: exportMonitorPoints,
};
