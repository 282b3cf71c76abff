import { translate, type MappingFigures } from '@coldwatch/contract';
import { wallClock, type Cell } from '../../modules/download/table.js';
import { detail } from '../../modules/verifytask/verifytask.repository.js';
import { aboutSheet, col, customerOf, dataScope, type Producer } from './context.js';

/*
 * A verification task's results (JJF 1101 mapping figures, docs/statistics.md): the task's
 * figures as name/value lines, then every point's readings, min, max, mean and fluctuation,
 * computed by the verification module as its page shows them.
 */

const r2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

export const exportVerifyTask: Producer = async (ctx, out, format) => {
  const task = await detail(ctx.db, dataScope(ctx), Number(ctx.criteria.id));
  const { name: customer, tz } = await customerOf(ctx, task.customerId);
  const L = ctx.locale;
  const t = (k: string) => col(L, k, tz);
  out.sheet(translate('errors.export.sheet.verifyTask', L), [t('name'), t('value')], [36, 40]);
  const res = task.result;
  const at = wallClock(tz);
  const lines: [string, Cell][] = [
    [t('name'), task.name],
    [t('carrier'), task.carrierName],
    [t('start'), at(task.recordStart)],
    [t('end'), at(task.endedAt ?? task.endTime)],
  ];
  const figures = (label: string, f: MappingFigures | null | undefined) => {
    if (!f) return;
    lines.push(
      [`${label} ${t('setpoint')}`, f.setpoint],
      [`${label} ${t('deviationMax')}`, r2(f.deviationMax)],
      [`${label} ${t('deviationMin')}`, r2(f.deviationMin)],
      [`${label} ${t('uniformity')}`, r2(f.uniformity)],
      [`${label} ${t('fluctuationMax')}`, r2(f.fluctuationMax)],
      [`${label} ${t('centreDeviation')}`, r2(f.centreDeviation)],
      [`${label} ${t('hottest')}`, f.hottest],
      [`${label} ${t('coldest')}`, f.coldest],
    );
  };
  figures(t('temp'), res);
  figures(t('hum'), res?.humidity);
  for (const l of lines) out.row(l);
  let rows = 0;
  out.sheet(t('point'), [t('point'), t('type'), t('readings'), t('min'), t('max'), t('avg'), t('fluctuation')], [16, 14, 10, 10, 10, 10, 12]);
  for (const [label, f] of [[t('temp'), res], [t('hum'), res?.humidity]] as const) {
    for (const p of f?.points ?? []) {
      out.row([p.deviceNo, label, p.readings, r2(p.min), r2(p.max), r2(p.mean), r2(p.fluctuation)]);
      rows++;
    }
  }
  ctx.progress(1);
  aboutSheet(ctx, out, format, tz, [
    ['customer', customer],
    ['subject', task.name],
    ['rows', rows],
  ]);
  return rows;
};
