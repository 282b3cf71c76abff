import type { Kysely } from 'kysely';
import { Code, SCENE_FUNC } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { msOf } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { sensorLiveSelect } from '../sensor/sensor.repository.js';
import { withStates } from '../dm/dm.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';


/** A floor-plan node of the caller's scope and limit; any other node type is refused (spec §3 funcType 1). */
async function planeScene(k: Kysely<DB>, scope: Scope, sceneId: number) {
  const s = await k
    .selectFrom('scene as t')
    .select(['t.id', 't.customer_id', 't.func_type', 't.label'])
    .where('t.id', '=', sceneId)
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .executeTakeFirst();
  if (!s) throw notFound();
  if (s.func_type !== SCENE_FUNC.floorPlan) throw new AppError(Code.FAILED, 'errors.rule.notFloorPlan');
  return s;
}

export async function saveImage(q: Queryable, scope: Scope, sceneId: number, img: { data: Buffer; mime: string }) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  await k
    .insertInto('scene_plane')
    .values({ scene_id: s.id, customer_id: s.customer_id, mime: img.mime, size: img.data.length, data: img.data })
    .onConflict((oc) => oc.column('scene_id').doUpdateSet({ mime: img.mime, size: img.data.length, data: img.data, updated_at: new Date() }))
    .execute();
  return { sceneId: s.id, size: img.data.length, mime: img.mime };
}

export async function image(q: Queryable, scope: Scope, sceneId: number) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  return k.selectFrom('scene_plane').select(['mime', 'data']).where('scene_id', '=', s.id).executeTakeFirst();
}

export async function info(q: Queryable, scope: Scope, sceneId: number) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  const p = await k.selectFrom('scene_plane').select(msOf('updated_at').as('updatedAt')).where('scene_id', '=', s.id).executeTakeFirst();
  return { sceneId: s.id, label: s.label, hasImage: !!p, updatedAt: p?.updatedAt ?? null };
}

/**
 * The list replaces the plan's placements. Every sensor must be the plan's customer's and in the
 * caller's limit; a sensor placed on another plan moves here (one place per sensor).
 */
export async function savePositions(q: Queryable, scope: Scope, sceneId: number, positions: { sensorId: number; x: number; y: number }[]) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  const ids = [...new Set(positions.map((p) => p.sensorId))];
  if (ids.length) {
    const ok = await k
      .selectFrom('sensor as t')
      .select('t.id')
      .where('t.id', 'in', ids)
      .where('t.customer_id', '=', s.customer_id)
      .where((eb) => sceneLimit(eb, scope, 'sensor'))
      .execute();
    if (ok.length !== ids.length) throw notFound();
  }
  await k.deleteFrom('scene_device_position').where('scene_id', '=', s.id).execute();
  if (ids.length) await k.deleteFrom('scene_device_position').where('sensor_id', 'in', ids).where('customer_id', '=', s.customer_id).execute();
  const last = new Map(positions.map((p) => [p.sensorId, p]));
  if (last.size) {
    await k
      .insertInto('scene_device_position')
      .values([...last.values()].map((p) => ({ sensor_id: p.sensorId, scene_id: s.id, customer_id: s.customer_id, x: p.x, y: p.y })))
      .execute();
  }
  return { placed: last.size };
}

/** Sensors of the plan's customer (and the caller's limit) placed on no plan yet. */
export async function unplaced(q: Queryable, scope: Scope, sceneId: number) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  return k
    .selectFrom('sensor as t')
    .leftJoin('carrier as c', 'c.id', 't.carrier_id')
    .select(['t.id', 't.dev_no as devNo', 't.type', 't.carrier_id as carrierId', 'c.name as carrierName'])
    .where('t.customer_id', '=', s.customer_id)
    .where((eb) => sceneLimit(eb, scope, 'sensor'))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('scene_device_position as p').select('p.sensor_id').whereRef('p.sensor_id', '=', 't.id'))))
    .orderBy('t.dev_no')
    .limit(2000)
    .execute();
}

/** The sensors on a plan with their positions, latest values and states against their carrier's zone. */
export async function placed(q: Queryable, scope: Scope, sceneId: number) {
  const k = scoped(q, scope);
  const s = await planeScene(k, scope, sceneId);
  const rows = await sensorLiveSelect(k)
    .innerJoin('scene_device_position as p', 'p.sensor_id', 'x.id')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['p.x', 'p.y', 'c.name as carrierName', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where('p.scene_id', '=', s.id)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .orderBy('x.dev_no')
    .execute();
  return rows.map(({ humMin, humMax, ...r }) => withStates({ tempMin: r.tempMin, tempMax: r.tempMax, humMin, humMax }, [r])[0]);
}
