import { randomBytes } from 'node:crypto';
import { Code, SCENE_FUNC, type SceneBody } from '@coldwatch/contract';
import type { Kysely } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { countOf } from '../../platform/db/query.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, noPermission, notFound } from '../../platform/http/errors.js';
import { idsInScope, inUse, mapUnique, sameCustomer, subtreeIds } from '../shared/records.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

/** Floor-plan nodes hold a picture with positioned devices, not a subtree (spec §4). */
const FLOOR_PLAN = SCENE_FUNC.floorPlan;
const floorPlanNoChildren = () => new AppError(Code.FAILED, 'errors.rule.floorPlanNoChildren');

/** Scene codes are the tree's node keys: letters and digits (spec §5 code), unguessable, never reused. */
const newCode = () => 'S' + randomBytes(8).toString('hex').toUpperCase().slice(0, 13);

/** The scenes of the tree: the caller's customers (or just its own), within its scene limit. */
export function scenesOf(q: Queryable, scope: Scope, customerIds: number[]) {
  return scoped(q, scope)
    .selectFrom('scene as t')
    .select(['t.id', 't.customer_id', 't.parent_id', 't.code', 't.label', 't.func_type', 't.lng', 't.lat'])
    .where('t.customer_id', 'in', customerIds.length ? customerIds : [0])
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .orderBy('t.sort')
    .orderBy('t.id')
    .execute();
}

export function carriersOf(q: Queryable, scope: Scope, customerIds: number[]) {
  return scoped(q, scope)
    .selectFrom('carrier as t')
    .select(['t.id', 't.customer_id', 't.scene_id', 't.name', 't.type'])
    .where('t.customer_id', 'in', customerIds.length ? customerIds : [0])
    .where((eb) => sceneLimit(eb, scope, 'carrier'))
    .orderBy('t.id')
    .execute();
}

/** Without all=true even a platform user sees its own customer's tree (spec §4: all=true for user type 2 or 3). */
export function customersOf(q: Queryable, scope: Scope, all: boolean) {
  let query = scoped(q, scope).selectFrom('customer').select(['id', 'name', 'code']);
  if (!all) query = query.where('id', '=', scope.customerId);
  return query.orderBy('id').execute();
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return scoped(q, scope)
    .selectFrom('scene as t')
    .innerJoin('customer as c', 'c.id', 't.customer_id')
    .select((eb) => [
      't.id',
      't.code',
      't.label',
      't.parent_id as parentId',
      't.func_type as funcType',
      't.lng',
      't.lat',
      't.customer_id as customerId',
      'c.name as customerName',
      countOf(eb.selectFrom('scene as x').whereRef('x.parent_id', '=', 't.id')).as('childCount'),
      countOf(eb.selectFrom('carrier as x').whereRef('x.scene_id', '=', 't.id')).as('carrierCount'),
    ])
    .where('t.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .executeTakeFirst();
}

/** The parent a node may hang under: in scope, the same customer, not a floor plan. */
async function checkParent(k: Kysely<DB>, scope: Scope, parentId: number, customerId?: number) {
  const parent = await k
    .selectFrom('scene as t')
    .select(['t.id', 't.customer_id', 't.func_type'])
    .where('t.id', '=', parentId)
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .executeTakeFirst();
  if (!parent) throw notFound();
  if (customerId !== undefined) sameCustomer(parent, customerId, 'scene');
  if (parent.func_type === FLOOR_PLAN) throw floorPlanNoChildren();
  return parent;
}

const codeExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.code');

export async function add(q: Queryable, scope: Scope, body: SceneBody & { customerId?: number }) {
  const k = scoped(q, scope);
  // A scene-limited user adds nodes only below its limit's scenes: a top-level node would fall outside it.
  if (scope.sceneIds !== null && !body.parentId) throw noPermission();
  const customerId = body.parentId ? (await checkParent(k, scope, body.parentId)).customer_id : targetCustomer(scope, body.customerId);
  return mapUnique(
    () =>
      k
        .insertInto('scene')
        .values({ customer_id: customerId, parent_id: body.parentId, code: newCode(), label: body.label, func_type: body.funcType, lng: body.lng, lat: body.lat })
        .returning(['id', 'code'])
        .executeTakeFirstOrThrow(),
    { scene_code: codeExists() },
  );
}

/** The node to change, locked, in the caller's scope and limit. */
async function lockedNode(k: Kysely<DB>, scope: Scope, id: number) {
  const row = await k
    .selectFrom('scene as t')
    .select(['t.id', 't.customer_id', 't.parent_id'])
    .where('t.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A node may move under a parent of its own customer, not a floor plan, not into its own subtree; a limited user keeps it inside its limit. */
async function checkNewParent(k: Kysely<DB>, scope: Scope, row: { id: number; customer_id: number; parent_id: number | null }, parentId: number | null) {
  if (scope.sceneIds !== null && !parentId && row.parent_id !== null) throw noPermission();
  if (parentId && parentId !== row.parent_id) {
    await checkParent(k, scope, parentId, row.customer_id);
    if ((await subtreeIds(k, row.id)).includes(parentId)) throw new AppError(Code.FAILED, 'errors.rule.sceneParent');
  }
}

export async function update(q: Queryable, scope: Scope, body: SceneBody & { id: number }) {
  const k = scoped(q, scope);
  const row = await lockedNode(k, scope, body.id);
  await checkNewParent(k, scope, row, body.parentId);
  if (body.funcType === FLOOR_PLAN) {
    const kid = await k.selectFrom('scene').select('id').where('parent_id', '=', row.id).limit(1).executeTakeFirst();
    if (kid) throw floorPlanNoChildren();
  }
  await k
    .updateTable('scene')
    .set({ parent_id: body.parentId, label: body.label, func_type: body.funcType, lng: body.lng, lat: body.lat })
    .where('id', '=', row.id)
    .where('customer_id', '=', row.customer_id)
    .execute();
  return { id: row.id };
}

/** Refuses while a scene holds carriers or child nodes not deleted in the same call: nothing is removed by surprise. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'scene', ids);
  const child = await k.selectFrom('scene').select('id').where('parent_id', 'in', ids).where('id', 'not in', ids).limit(1).executeTakeFirst();
  const carrier = await k.selectFrom('carrier').select('id').where('scene_id', 'in', ids).limit(1).executeTakeFirst();
  if (child || carrier) throw inUse('scene');
  const r = await k.deleteFrom('scene').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}

/**
 * Drag and drop in the tree: the node goes under `parentId` (null: the customer's top level)
 * at position `index` among its new siblings, which are numbered again in that order.
 */
export async function move(q: Queryable, scope: Scope, body: { id: number; parentId: number | null; index: number }) {
  const k = scoped(q, scope);
  const row = await lockedNode(k, scope, body.id);
  await checkNewParent(k, scope, row, body.parentId);
  const siblings = await k
    .selectFrom('scene')
    .select('id')
    .where('customer_id', '=', row.customer_id)
    .where((eb) => (body.parentId ? eb('parent_id', '=', body.parentId) : eb('parent_id', 'is', null)))
    .where('id', '<>', row.id)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const order = siblings.map((x) => x.id);
  order.splice(Math.min(body.index, order.length), 0, row.id);
  await k.updateTable('scene').set({ parent_id: body.parentId }).where('id', '=', row.id).execute();
  for (const [i, id] of order.entries()) await k.updateTable('scene').set({ sort: i }).where('id', '=', id).where('customer_id', '=', row.customer_id).execute();
  return { id: row.id };
}
