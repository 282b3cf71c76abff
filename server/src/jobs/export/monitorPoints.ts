import { climateOf, sensorOnline, translate } from '@coldwatch/contract';
import { wallClock } from '../../modules/download/table.js';
import { monitorTableView, type TableQuery } from '../../modules/dm/table.js';
import { aboutSheet, col, customerOf, dataScope, type Producer } from './context.js';

/*
 * The monitoring-point table's whole filtered view (/databoard/monitoringPoint), in its order,
 * as the table shows each carrier: its state, its value by its sample mode, zones, sensors
 * online, open exceptions and last update. The order is found once on the server (dm/table.ts);
 * the carriers are read CHUNK at a time, so the export never holds the whole list (62 MB at
 * 100,000 sensors) and ingest gets its turn between the reads.
 */

const CHUNK = 500;

export const exportMonitorPoints: Producer = async (ctx, out, format) => {
  const c = ctx.criteria as unknown as TableQuery;
  const L = ctx.locale;
  const { name: customer, tz } = await customerOf(ctx, ctx.scope.customerIds?.[0] ?? 0).catch(() => ({ name: '', tz: '+08:00' }));
  const t = (k: string) => col(L, k, tz);
  const b = (k: string) => translate(`errors.backup.col.${k}`, L);
  const at = wallClock(tz);
  out.sheet(translate('errors.export.sheet.monitorPoints', L), [b('carrier'), b('type'), b('scene'), b('customer'), t('boardState'), b('temp'), b('hum'), b('tempMin'), b('tempMax'), b('humMin'), b('humMax'), t('sensorsOnline'), t('openExceptions'), t('updated')], [24, 12, 20, 20, 10, 14, 14, 12, 12, 12, 12, 10, 10, 20]);
  const view = await monitorTableView(ctx.db, dataScope(ctx), { search: c.search, sceneId: c.sceneId, customerId: c.customerId, type: c.type, state: c.state ?? 'all', sort: c.sort, order: c.order });
  for (let i = 0; i < view.ids.length; i += CHUNK) {
    ctx.checkpoint();
    for (const r of await view.read(view.ids.slice(i, i + CHUNK))) {
      const v = climateOf(r);
      out.row([
        r.name, translate(`errors.backup.carrierType.${r.type}`, L), r.sceneLabel, r.customerName, translate(`errors.export.boardState.${r.state}`, L), v.temp, v.hum,
        r.tempMin, r.tempMax, r.humMin, r.humMax, `${r.sensors.filter(sensorOnline).length}/${r.sensors.length}`, r.openExceptions, at(v.ts),
      ]);
    }
    ctx.progress(Math.min(1, (i + CHUNK) / view.ids.length));
    await out.breathe();
  }
  aboutSheet(ctx, out, format, tz, [
    ['customer', customer],
    ['subject', String(ctx.criteria.subject ?? '')],
    ['rows', view.ids.length],
  ]);
  return view.ids.length;
};
