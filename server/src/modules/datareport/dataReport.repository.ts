import { Code, DATA_REPORT_MAX_CARRIERS, type DataReportQuery, type DataReportResult } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/errors.js';
import { carrierFilter } from '../carrier/carrier.repository.js';
import { stats as exceptionStats } from '../exception/exception.repository.js';
import { statistics } from '../statistic/statistic.repository.js';
import { aggregate, byType, carrierLine, worstFirst } from './summary.js';

/**
 * The data report (spec §2 /count/dataReport): the caller's carriers of the organisation node
 * (its subtree) and type, within its scope and scene limit, with their statistics over the span
 * (statistic.repository: the same figures as /count/statistic), added up, and the exceptions of
 * those carriers going on in the span. More than DATA_REPORT_MAX_CARRIERS: refused, never cut.
 */
export async function dataReport(db: Db, scope: Scope, f: DataReportQuery): Promise<DataReportResult> {
  const k = scoped(db, scope);
  const where = await carrierFilter(k, scope, { sceneId: f.sceneId, type: f.type });
  const carriers = await k
    .selectFrom('carrier as c')
    .leftJoin('scene as sc', 'sc.id', 'c.scene_id')
    .select(['c.id', 'c.type', 'sc.label as sceneLabel'])
    .where(where)
    .orderBy('c.name')
    .orderBy('c.id')
    .limit(DATA_REPORT_MAX_CARRIERS + 1)
    .execute();
  if (carriers.length > DATA_REPORT_MAX_CARRIERS) {
    const { count } = await k.selectFrom('carrier as c').select((eb) => eb.fn.countAll<number>().as('count')).where(where).executeTakeFirstOrThrow();
    throw new AppError(Code.PARAM_ERROR, 'errors.dataReport.tooMany', 400, undefined, { count: Number(count), max: DATA_REPORT_MAX_CARRIERS });
  }
  const meta = new Map(carriers.map((c) => [c.id, { type: c.type, sceneLabel: c.sceneLabel ?? '' }]));
  const ids = carriers.map((c) => c.id);
  const figures = ids.length ? await statistics(db, scope, ids, f.startTime, f.endTime) : [];
  const lines = figures.map((s) => carrierLine(s, meta.get(s.carrierId)!)).sort(worstFirst);
  const exceptions = ids.length
    ? await exceptionStats(db, scope, { startTime: f.startTime, endTime: f.endTime, carrierIds: ids })
    : { total: 0, pending: 0, processed: 0, closed: 0, ongoing: 0, byCategory: {} };
  return { startTime: f.startTime, endTime: f.endTime, summary: aggregate(lines), byType: byType(lines), exceptions, carriers: lines };
}
