import { sql } from 'kysely';
import { Code, QUERY_CODE_DEFAULT_BACK_MS, QUERY_CODE_MAX_POINTS, QUERY_CODE_STATUS, QUERY_CODE_TTL_MS, type FoundSensors, type QueryCodeBody, type QueryCodeRow } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOf, msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { linkScope, type Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { history } from '../history/history.repository.js';
import type { CodeLink } from './querycode.link.js';

/*
 * Query codes (docs/workorders.md "Query codes"). A code names sensors of one customer and a
 * period; it is listed to whoever sees all its sensors (a scene-limited user: those within its
 * limit), and read without sign-in by its signed token (querycode.link.ts), with the code's
 * customer as the whole scope and its sensors as the whole list.
 */

const revoked = () => new AppError(Code.FAILED, 'errors.queryCode.revoked', 401);
const gone = () => new AppError(Code.FAILED, 'errors.queryCode.invalid', 401);

/** Makes a code for sensors the caller sees, all of one customer (spec §5: selected devices must belong to the same customer). */
export async function generate(q: Queryable, scope: Scope, b: QueryCodeBody, now: number): Promise<{ id: number; customerId: number; exp: number }> {
  const ids = [...new Set(b.sensorIds)];
  const k = scoped(q, scope);
  const sensors = await k.selectFrom('sensor as s').select(['s.id', 's.customer_id']).where('s.id', 'in', ids).where((eb) => sceneLimit(eb, scope, 'sensor', 's')).execute();
  if (sensors.length !== ids.length) throw notFound();
  const customers = new Set(sensors.map((s) => s.customer_id));
  if (customers.size !== 1) throw new AppError(Code.FAILED, 'errors.queryCode.sameCustomer');
  const customerId = sensors[0].customer_id;
  const exp = now + QUERY_CODE_TTL_MS;
  const start = b.startTime ?? now - QUERY_CODE_DEFAULT_BACK_MS;
  const end = b.endTime ?? exp;
  const row = await k
    .insertInto('query_code')
    .values({ customer_id: customerId, note: b.note, start_ts: new Date(start), end_ts: new Date(end), expires_at: new Date(exp), created_by: (scope.name || scope.account).slice(0, 50) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k.insertInto('query_code_sensor').values(ids.map((sensor_id) => ({ customer_id: customerId, code_id: row.id, sensor_id }))).execute();
  return { id: row.id, customerId, exp };
}

/** The caller's codes: a scene-limited caller's only those whose every sensor is within its limit. */
const visibleCodes = (q: Queryable, scope: Scope) =>
  scoped(q, scope)
    .selectFrom('query_code as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('query_code_sensor as qs')
            .innerJoin('sensor as s', 's.id', 'qs.sensor_id')
            .select('qs.sensor_id')
            .whereRef('qs.code_id', '=', 'c.id')
            .where((e) => e.not(sceneLimit(e, scope, 'sensor', 's'))),
        ),
      ),
    );

const statusSql = sql<number>`CASE WHEN c.revoked_at IS NOT NULL THEN ${QUERY_CODE_STATUS.revoked}::int WHEN c.expires_at <= now() THEN ${QUERY_CODE_STATUS.expired}::int ELSE ${QUERY_CODE_STATUS.active}::int END`;

export interface CodeFilter extends PageInput {
  status?: number;
  customerId?: number;
}

export async function pageCodes(q: Queryable, scope: Scope, f: CodeFilter): Promise<Paged<Omit<QueryCodeRow, 'code' | 'url'>>> {
  const query = visibleCodes(q, scope)
    .select([
      'c.id',
      'c.customer_id as customerId',
      'cu.name as customerName',
      'c.note',
      msOf('c.start_ts').as('startTime'),
      msOf('c.end_ts').as('endTime'),
      msOf('c.expires_at').as('expiresAt'),
      statusSql.as('status'),
      'c.created_by as createdBy',
      msOf('c.created_at').as('createdAt'),
      msOrNull('c.revoked_at').as('revokedAt'),
    ])
    .where((eb) => eb.and([...(f.status !== undefined ? [eb(statusSql, '=', f.status)] : []), ...(f.customerId ? [eb('c.customer_id', '=', f.customerId)] : [])]));
  const page = await paged(query, f, { by: ['c.id desc'] });
  const ids = page.rows.map((r) => r.id);
  const sensors = ids.length
    ? await scoped(q, scope)
        .selectFrom('query_code_sensor as qs')
        .innerJoin('sensor as s', 's.id', 'qs.sensor_id')
        .leftJoin('carrier as k', 'k.id', 's.carrier_id')
        .select(['qs.code_id', 's.dev_no as devNo', 's.description as name', 'k.name as carrierName'])
        .where('qs.code_id', 'in', ids)
        .where((eb) => sceneLimit(eb, scope, 'sensor', 's'))
        .orderBy('s.dev_no')
        .execute()
    : [];
  return {
    ...page,
    rows: page.rows.map((r) => ({
      ...r,
      startTime: Number(r.startTime),
      endTime: Number(r.endTime),
      expiresAt: Number(r.expiresAt),
      createdAt: Number(r.createdAt),
      revokedAt: r.revokedAt === null ? null : Number(r.revokedAt),
      sensors: sensors.filter((s) => s.code_id === r.id).map(({ code_id: _c, ...s }) => s),
    })),
  };
}

/** Revokes codes the caller sees (all or none, as every change by ids); a revoked one stays revoked. */
export async function revoke(q: Queryable, scope: Scope, ids: number[]): Promise<{ revoked: number }> {
  const found = await visibleCodes(q, scope).select('c.id').where('c.id', 'in', ids).execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const r = await scoped(q, scope)
    .updateTable('query_code')
    .set({ revoked_at: sql<Date>`now()`, revoked_by: (scope.name || scope.account).slice(0, 50) })
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return { revoked: Number(r.numUpdatedRows) };
}


/** What /queryCode shows for a genuine, unexpired code: the code's sensors (a page of them) with their readings over its period, up to now. */
export async function foundSensors(db: Db, link: CodeLink, page: PageInput, now: number): Promise<FoundSensors> {
  const scope = linkScope(link.customerId);
  const k = scoped(db, scope);
  const code = await k
    .selectFrom('query_code as c')
    .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
    .select(['c.revoked_at', msOf('c.start_ts').as('start'), msOf('c.end_ts').as('end'), 'cu.name', 'cu.time_zone'])
    .where('c.id', '=', link.id)
    .executeTakeFirst();
  // The code went with its customer: as good as never made.
  if (!code) throw gone();
  if (code.revoked_at) throw revoked();
  const start = Number(code.start);
  const end = Math.min(Number(code.end), now);
  const list = k
    .selectFrom('query_code_sensor as qs')
    .innerJoin('sensor as s', 's.id', 'qs.sensor_id')
    .leftJoin('carrier as c', 'c.id', 's.carrier_id')
    .select(['s.dev_no as devNo', 's.description as name', 'c.name as carrierName'])
    .where('qs.code_id', '=', link.id);
  const sensors = await paged(list, page, { by: ['s.dev_no'] });
  const rows = [];
  for (const s of sensors.rows) {
    const h = await history(db, scope, { deviceNo: s.devNo, start, end: Math.max(start, end), maxPoints: QUERY_CODE_MAX_POINTS });
    if (!h) continue;
    const { carrierId: _id, ...readings } = h;
    rows.push({ ...readings, name: s.name, carrierName: s.carrierName });
  }
  return { ...sensors, rows, startTime: start, endTime: Number(code.end), expiresAt: link.exp, customerName: code.name, timeZone: code.time_zone };
}
