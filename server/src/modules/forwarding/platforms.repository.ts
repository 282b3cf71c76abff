import { type Expression, type SqlBool, sql } from 'kysely';
import { Code, type ForwardPlatformRow } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, paged, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';
import { requireWholeCustomer } from './servers.repository.js';
import { seal } from './secret.js';

/*
 * Supervision platforms (spec §3 Platform: code, name, vendor code, app id, key): the identity a
 * customer reports under, reached through one of its forwarding servers. The key signs every
 * message (docs/forwarding.md "Platforms"); it is sealed like a server's password and never answered.
 */

export interface PlatformInput {
  customerId?: number;
  serverId: number;
  code: string;
  name: string;
  vendorCode: string;
  appId: string;
  key: string;
}

export async function pagePlatforms(q: Queryable, scope: Scope, f: PageInput & { name?: string; customerId?: number }): Promise<Paged<ForwardPlatformRow>> {
  const query = listQuery(q, scope).where((eb) => {
    const and: Expression<SqlBool>[] = [];
    if (f.name) and.push(eb('p.name', 'ilike', contains(f.name)));
    if (f.customerId) and.push(eb('p.customer_id', '=', f.customerId));
    return eb.and(and);
  });
  return paged(query, f, { by: ['p.customer_id', 'p.id'] });
}

function listQuery(q: Queryable, scope: Scope) {
  return scoped(q, scope)
    .selectFrom('forward_platform as p')
    .innerJoin('customer as cu', 'cu.id', 'p.customer_id')
    .innerJoin('forward_server as f', 'f.id', 'p.server_id')
    .select([
      'p.id',
      'p.customer_id as customerId',
      'cu.name as customerName',
      'p.server_id as serverId',
      'f.name as serverName',
      'p.code',
      'p.name',
      'p.vendor_code as vendorCode',
      'p.app_id as appId',
      sql<boolean>`p.key_enc <> ''`.as('hasKey'),
      sql<number>`${msOf('p.created_at')}::float8`.as('createdAt'),
    ]);
}

export async function platformDetail(q: Queryable, scope: Scope, id: number): Promise<ForwardPlatformRow> {
  const row = await listQuery(q, scope).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const answers = () => ({
  forward_platform_customer_id_code: conflict(Code.CODE_EXISTS, 'errors.forwarding.platformCodeExists'),
  forward_platform_customer_id_app_id: conflict(Code.FAILED, 'errors.forwarding.appKeyExists'),
});

/** The server a platform goes through: the caller's, and the platform's own customer's. */
async function serverOf(q: Queryable, scope: Scope, serverId: number, customerId?: number): Promise<number> {
  const s = await scoped(q, scope).selectFrom('forward_server').select(['id', 'customer_id']).where('id', '=', serverId).executeTakeFirst();
  if (!s) throw notFound();
  if (customerId !== undefined && s.customer_id !== customerId) throw new AppError(Code.FAILED, 'errors.forwarding.otherCustomer');
  return s.customer_id;
}

const columns = (b: PlatformInput) => ({ server_id: b.serverId, code: b.code, name: b.name, vendor_code: b.vendorCode, app_id: b.appId });

export async function addPlatform(q: Queryable, scope: Scope, key: Buffer, b: PlatformInput): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const customerId = await serverOf(q, scope, b.serverId, b.customerId);
  const k = scoped(q, scope);
  const row = await mapUnique(
    () => k.insertInto('forward_platform').values({ customer_id: customerId, ...columns(b), key_enc: seal(key, b.key) }).returning('id').executeTakeFirstOrThrow(),
    answers(),
  );
  return { id: row.id };
}

export async function updatePlatform(q: Queryable, scope: Scope, key: Buffer, b: PlatformInput & { id: number }): Promise<{ id: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const cur = await k.selectFrom('forward_platform').select(['id', 'customer_id']).where('id', '=', b.id).forUpdate().executeTakeFirst();
  if (!cur) throw notFound();
  await serverOf(q, scope, b.serverId, cur.customer_id);
  const secret = b.key ? { key_enc: seal(key, b.key) } : {};
  await mapUnique(() => k.updateTable('forward_platform').set({ ...columns(b), ...secret }).where('id', '=', b.id).execute(), answers());
  // The settings that go through this platform follow it to its server.
  await k.updateTable('forward_binding').set({ server_id: b.serverId }).where('platform_id', '=', b.id).execute();
  return { id: b.id };
}

export async function removePlatforms(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  requireWholeCustomer(scope);
  const k = scoped(q, scope);
  const found = await k.selectFrom('forward_platform').select('id').where('id', 'in', ids).forUpdate().execute();
  if (found.length !== new Set(ids).size) throw notFound();
  const used = await k.selectFrom('forward_binding').select('id').where('platform_id', 'in', ids).limit(1).executeTakeFirst();
  if (used) throw new AppError(Code.FAILED, 'errors.forwarding.inUse');
  const r = await k.deleteFrom('forward_platform').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}
