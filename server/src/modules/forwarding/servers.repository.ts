import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { Code, type ForwardServerRow } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, noPermission, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';
import { seal } from './secret.js';

/*
 * Forwarding servers (spec §3; docs/forwarding.md): a customer's remotes. The password goes in
 * sealed and never comes out: rows answer `hasPassword`, and an update with an empty password
 * keeps the stored one. Servers are the customer's, not a scene's: a scene-limited user sees
 * them (to bind its carriers) but does not change them.
 */

export interface ServerInput {
  customerId?: number;
  type: 'mqtt' | 'http';
  name: string;
  host: string;
  port: number;
  tls: boolean;
  path: string;
  clientId: string;
  username: string;
  password: string;
  qos: 0 | 1 | 2;
  timeoutS: number;
  heartbeatS: number;
  subTopic: string;
  pubTopic: string;
  enabled: boolean;
}

export interface ServerFilter extends PageInput {
  name?: string;
  type?: 'mqtt' | 'http';
  customerId?: number;
}

/** Scene-limited callers only read the customer's configuration (it reaches beyond their scenes). */
export function requireWholeCustomer(scope: Scope) {
  if (scope.sceneIds !== null) throw noPermission();
}

function listQuery(k: Kysely<DB>) {
  return k
    .selectFrom('forward_server as f')
    .innerJoin('customer as cu', 'cu.id', 'f.customer_id')
    .leftJoin('forward_state as st', 'st.server_id', 'f.id')
    .select((eb) => [
      'f.id',
      'f.customer_id as customerId',
      'cu.name as customerName',
      'f.type',
      'f.name',
      'f.host',
      'f.port',
      'f.tls',
      'f.path',
      'f.client_id as clientId',
      'f.username',
      sql<boolean>`f.password_enc <> ''`.as('hasPassword'),
      'f.qos',
      'f.timeout_s as timeoutS',
      'f.heartbeat_s as heartbeatS',
      'f.sub_topic as subTopic',
      'f.pub_topic as pubTopic',
      'f.enabled',
      eb.selectFrom('forward_binding as b').select(sql<number>`count(*)::int`.as('n')).whereRef('b.server_id', '=', 'f.id').as('bindings'),
      sql<boolean>`coalesce(st.connected, false)`.as('connected'),
      msOrNull('st.last_forwarded_at').as('lastForwardedAt'),
      sql<number>`coalesce(st.forwarded, 0)::int`.as('forwarded'),
      sql<number>`coalesce(st.backlog, 0)`.as('backlog'),
      sql<string>`coalesce(st.last_error, '')`.as('lastError'),
      msOrNull('st.last_error_at').as('lastErrorAt'),
      msOf('f.created_at').as('createdAt'),
    ]);
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number];

const toRow = (r: ListRow): ForwardServerRow => ({
  id: r.id,
  customerId: r.customerId,
  customerName: r.customerName,
  type: r.type as 'mqtt' | 'http',
  name: r.name,
  host: r.host,
  port: r.port,
  tls: r.tls,
  path: r.path,
  clientId: r.clientId,
  username: r.username,
  hasPassword: r.hasPassword,
  qos: r.qos,
  timeoutS: r.timeoutS,
  heartbeatS: r.heartbeatS,
  subTopic: r.subTopic,
  pubTopic: r.pubTopic,
  enabled: r.enabled,
  bindings: Number(r.bindings ?? 0),
  status: {
    connected: r.connected,
    lastForwardedAt: r.lastForwardedAt === null ? null : Number(r.lastForwardedAt),
    forwarded: Number(r.forwarded),
    backlog: Number(r.backlog),
    lastError: r.lastError,
    lastErrorAt: r.lastErrorAt === null ? null : Number(r.lastErrorAt),
  },
  createdAt: Number(r.createdAt),
});

export async function pageServers(q: Queryable, scope: Scope, f: ServerFilter): Promise<Paged<ForwardServerRow>> {
  const query = listQuery(scoped(q, scope)).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('f.name', 'ilike', contains(f.name)));
    if (f.type) and.push(eb('f.type', '=', f.type));
    if (f.customerId) and.push(eb('f.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  const page = await paged(query, f, { by: ['f.customer_id', 'f.id'] });
  return { ...page, rows: page.rows.map(toRow) };
}

export async function serverDetail(q: Queryable, scope: Scope, id: number): Promise<ForwardServerRow> {
  const row = await listQuery(scoped(q, scope)).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toRow(row);
}

const columns = (b: ServerInput) => ({
  type: b.type,
  name: b.name,
  host: b.host,
  port: b.port,
  tls: b.tls,
  // A broker has no path; a receiver no topics, client id or QoS of its own (kept as typed for the page).
  path: b.type === 'http' ? b.path || '/' : '',
  client_id: b.clientId,
  username: b.username,
  qos: b.qos,
  timeout_s: b.timeoutS,
  heartbeat_s: b.heartbeatS,
  sub_topic: b.subTopic,
  pub_topic: b.pubTopic,
  enabled: b.enabled,
});

/** §8 "existing name / host port / URI", answered before the write; the indexes of 0043 are the final word. */
async function checkUnique(k: Kysely<DB>, customerId: number, b: ServerInput, exceptId = 0) {
  const same = await k
    .selectFrom('forward_server')
    .select(['name', 'type', 'host', 'port', 'path'])
    .where('customer_id', '=', customerId)
    .where('id', '<>', exceptId)
    .where((eb) => eb.or([eb('name', '=', b.name), eb(sql`lower(host)`, '=', b.host.toLowerCase())]))
    .execute();
  if (same.some((s) => s.name === b.name)) throw conflict(Code.NAME_EXISTS, 'errors.forwarding.nameExists');
  const path = columns(b).path;
  for (const s of same) {
    if (s.type !== b.type || s.port !== b.port) continue;
    if (b.type === 'mqtt') throw conflict(Code.FAILED, 'errors.forwarding.hostPortExists');
    if (s.path === path) throw conflict(Code.FAILED, 'errors.forwarding.uriExists');
  }
}

const uniqueAnswers = () => ({
  forward_server_customer_id_name: conflict(Code.NAME_EXISTS, 'errors.forwarding.nameExists'),
  forward_server_host_port: conflict(Code.FAILED, 'errors.forwarding.hostPortExists'),
  forward_server_uri: conflict(Code.FAILED, 'errors.forwarding.uriExists'),
});

export async function addServer(q: Queryable, scope: Scope, key: Buffer, b: ServerInput): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const customerId = targetCustomer(scope, b.customerId);
  await checkUnique(k, customerId, b);
  const row = await mapUnique(
    () =>
      k
        .insertInto('forward_server')
        .values({ customer_id: customerId, ...columns(b), password_enc: seal(key, b.password) })
        .returning('id')
        .executeTakeFirstOrThrow(),
    uniqueAnswers(),
  );
  await k.insertInto('forward_state').values({ server_id: row.id, customer_id: customerId }).execute();
  return { id: row.id };
}

export async function updateServer(q: Queryable, scope: Scope, key: Buffer, b: ServerInput & { id: number }): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const cur = await k.selectFrom('forward_server').select(['id', 'customer_id']).where('id', '=', b.id).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await checkUnique(k, cur.customer_id, b, b.id);
  // An empty password keeps the stored one: the page never has it to send back.
  const secret = b.password ? { password_enc: seal(key, b.password) } : {};
  await mapUnique(
    () => k.updateTable('forward_server').set({ ...columns(b), ...secret, updated_at: sql<Date>`now()` }).where('id', '=', b.id).execute(),
    uniqueAnswers(),
  );
  return { id: b.id };
}

/** All or none; a server a platform or a setting uses stays (spec §8 "module in use"). */
export async function removeServers(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const found = await k.selectFrom('forward_server').select('id').where('id', 'in', ids).forUpdate().execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const used = await k
    .selectFrom('forward_binding')
    .select('id')
    .where('server_id', 'in', ids)
    .union(k.selectFrom('forward_platform').select('id').where('server_id', 'in', ids))
    .limit(1)
    .executeTakeFirst();
  if (used) throw new AppError(Code.FAILED, 'errors.forwarding.inUse');
  const r = await k.deleteFrom('forward_server').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
