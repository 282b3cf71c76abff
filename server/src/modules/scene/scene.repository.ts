import { randomBytes } from 'node:crypto';
import { Code, type SceneBody } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { sceneWhere, scopeWhere, targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError, conflict, noPermission } from '../../platform/http/errors.js';
import { inUse, mapUnique, sameCustomer, sceneSubtree, scopedIds, scopedRow } from '../dm/records.js';

export interface SceneRow {
  id: number;
  customer_id: number;
  parent_id: number | null;
  code: string;
  label: string;
  func_type: number;
  lng: number | null;
  lat: number | null;
}

/** Floor-plan nodes (funcType 1) hold a picture with positioned devices, not a subtree (spec §4). */
const FLOOR_PLAN = 1;
const floorPlanNoChildren = () => new AppError(Code.FAILED, 'errors.rule.floorPlanNoChildren');

/** Scene codes are the tree's node keys: letters and digits (spec §5 code), unguessable, never reused. */
const newCode = () => 'S' + randomBytes(8).toString('hex').toUpperCase().slice(0, 13);

/** The scenes of these customers; with a scene limit (not null) only the limit's scenes. */
export const scenesOf = (db: Db, customerIds: number[], sceneIds: number[] | null = null) =>
  db.query<SceneRow>(
    `SELECT id, customer_id, parent_id, code, label, func_type, lng, lat FROM scene
      WHERE customer_id = ANY($1::int[]) AND ($2::int[] IS NULL OR id = ANY($2::int[])) ORDER BY sort, id`,
    [customerIds, sceneIds],
  );

export const carriersOf = (db: Db, customerIds: number[]) =>
  db.query<{ id: number; customer_id: number; scene_id: number; name: string; type: number }>(
    'SELECT id, customer_id, scene_id, name, type FROM carrier WHERE customer_id = ANY($1::int[]) ORDER BY id',
    [customerIds],
  );

export async function customersOf(db: Db, scope: Scope, all: boolean) {
  const params: unknown[] = [];
  // Without all=true even a platform user sees its own customer's tree (spec §4: all=true for user type 2 or 3).
  const where = all ? scopeWhere(scope, 'id', params) : `id = $${params.push(scope.customerId)}`;
  return db.query<{ id: number; name: string; code: string }>(`SELECT id, name, code FROM customer WHERE ${where} ORDER BY id`, params);
}

export async function detail(db: Db, scope: Scope, id: number) {
  const params: unknown[] = [id];
  const row = await db.one(
    `SELECT s.id, s.code, s.label, s.parent_id AS "parentId", s.func_type AS "funcType", s.lng, s.lat,
            s.customer_id AS "customerId", c.name AS "customerName",
            (SELECT count(*)::int FROM scene x WHERE x.parent_id = s.id) AS "childCount",
            (SELECT count(*)::int FROM carrier x WHERE x.scene_id = s.id) AS "carrierCount"
       FROM scene s JOIN customer c ON c.id = s.customer_id
      WHERE s.id = $1 AND ${scopeWhere(scope, 's.customer_id', params)} AND ${sceneWhere(scope, 's.id', params)}`,
    params,
  );
  return row;
}

/** The parent a node may hang under: in scope, the same customer, not a floor plan. */
async function checkParent(q: Queryable, scope: Scope, parentId: number, customerId?: number) {
  const parent = await scopedRow<SceneRow>(q, scope, 'scene', parentId, 't.id, t.customer_id, t.func_type');
  if (customerId !== undefined) sameCustomer(parent, customerId, 'scene');
  if (parent.func_type === FLOOR_PLAN) throw floorPlanNoChildren();
  return parent;
}

const codeExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.code');

export async function add(q: Queryable, scope: Scope, body: SceneBody & { customerId?: number }) {
  // A scene-limited user adds nodes only below its limit's scenes: a top-level node would fall outside it.
  if (scope.sceneIds !== null && !body.parentId) throw noPermission();
  const customerId = body.parentId ? (await checkParent(q, scope, body.parentId)).customer_id : targetCustomer(scope, body.customerId);
  return mapUnique(
    () =>
      q.query<{ id: number; code: string }>(
        `INSERT INTO scene(customer_id, parent_id, code, label, func_type, lng, lat) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, code`,
        [customerId, body.parentId, newCode(), body.label, body.funcType, body.lng, body.lat],
      ),
    { scene_code: codeExists() },
  ).then((r) => r[0]);
}

export async function update(q: Queryable, scope: Scope, body: SceneBody & { id: number }) {
  const row = await scopedRow<SceneRow>(q, scope, 'scene', body.id, 't.id, t.customer_id, t.parent_id, t.func_type');
  if (scope.sceneIds !== null && !body.parentId && row.parent_id !== null) throw noPermission();
  if (body.parentId && body.parentId !== row.parent_id) {
    await checkParent(q, scope, body.parentId, row.customer_id);
    const below = await q.query(`SELECT 1 FROM ${sceneSubtree('$1')} sub WHERE sub.id = $2`, [row.id, body.parentId]);
    if (below.length) throw new AppError(Code.FAILED, 'errors.rule.sceneParent');
  }
  if (body.funcType === FLOOR_PLAN) {
    const kids = await q.query('SELECT 1 FROM scene WHERE parent_id = $1 LIMIT 1', [row.id]);
    if (kids.length) throw floorPlanNoChildren();
  }
  await q.query('UPDATE scene SET parent_id = $2, label = $3, func_type = $4, lng = $5, lat = $6 WHERE id = $1', [
    row.id,
    body.parentId,
    body.label,
    body.funcType,
    body.lng,
    body.lat,
  ]);
  return { id: row.id };
}

/** Refuses while a scene holds carriers or child nodes not deleted in the same call: nothing is removed by surprise. */
export async function remove(q: Queryable, scope: Scope, ids: number[]) {
  await scopedIds(q, scope, 'scene', ids);
  const busy = await q.query(
    `SELECT 1 FROM scene WHERE parent_id = ANY($1::int[]) AND NOT id = ANY($1::int[])
     UNION ALL SELECT 1 FROM carrier WHERE scene_id = ANY($1::int[]) LIMIT 1`,
    [ids],
  );
  if (busy.length) throw inUse('scene');
  await q.query('DELETE FROM scene WHERE id = ANY($1::int[])', [ids]);
  return { deleted: ids.length };
}
