import { sql, type Kysely } from 'kysely';
import { Code, VERIFY_STATUS, type VerifyTaskDetail, type VerifyTaskRow, type verifyTaskAddBody, type verifyTaskUpdateBody } from '@coldwatch/contract';
import type { z } from 'zod';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { msOf, paged, contains, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { rowInScope } from '../shared/records.js';
import { carrierProbes, checkSetpoints, mappingOf } from '../mapping/mapping.repository.js';

/*
 * Verification tasks (spec §2 /arch/verificationTask, §3, §4; issue 29; docs/statistics.md
 * "Verification tasks"). A task is one carrier's mapping study with some of its probes. The
 * status follows the times (the job `verify-task`, jobs/verifyTask.ts) or the actions start
 * recording and terminate; a task in progress cannot be changed or deleted (spec §4 "a running
 * check task cannot be deleted"). A task whose end has already passed when it is made (an
 * evaluation of a recording already stored) is terminated from the start and tells nobody.
 */

type Body = z.output<typeof verifyTaskAddBody>;
type UpdateBody = z.output<typeof verifyTaskUpdateBody>;
const running = [VERIFY_STATUS.starting, VERIFY_STATUS.recording];
const stateError = (key: string) => new AppError(Code.FAILED, `errors.verifyTask.${key}`);

export interface TaskFilter extends PageInput {
  name?: string;
  carrierId?: number;
  status?: number;
}

function selectTasks(k: Kysely<DB>, scope: Scope) {
  return k
    .selectFrom('verify_task as t')
    .innerJoin('carrier as c', 'c.id', 't.carrier_id')
    .select([
      't.id', 't.customer_id as customerId', 't.carrier_id as carrierId', 'c.name as carrierName', 't.name', 't.description', 't.conditions',
      't.setpoint', 't.hum_setpoint as humSetpoint', 't.centre_sensor_id as centreSensorId',
      msOf('t.start_time').as('startTime'), msOf('t.record_start').as('recordStart'), msOf('t.end_time').as('endTime'),
      sql<number | null>`(extract(epoch from t.ended_at) * 1000)::bigint`.as('endedAt'),
      sql<number>`floor(extract(epoch from t.end_time - t.record_start) / 60)::int`.as('durationMin'),
      't.interval_s as intervalS', 't.data_delay_min as dataDelayMin', 't.offline_delay_min as offlineDelayMin',
      't.notify_complete as notifyComplete', 't.notify_timeout as notifyTimeout', 't.notify_exception as notifyException',
      't.status', msOf('t.updated_at').as('updatedAt'), 't.updated_by as updatedBy',
    ])
    .where((eb) => sceneLimit(eb, scope, 'verify_task'));
}

/** The devices of the tasks, by device number. */
async function devicesOf(k: Kysely<DB>, ids: number[]): Promise<Map<number, { id: number; devNo: string }[]>> {
  const out = new Map<number, { id: number; devNo: string }[]>();
  if (!ids.length) return out;
  const rows = await k
    .selectFrom('verify_task_device as d')
    .innerJoin('sensor as s', 's.id', 'd.sensor_id')
    .select(['d.task_id', 's.id', 's.dev_no'])
    .where('d.task_id', 'in', ids)
    .orderBy('s.dev_no')
    .execute();
  for (const r of rows) out.set(r.task_id, [...(out.get(r.task_id) ?? []), { id: r.id, devNo: r.dev_no }]);
  return out;
}

type Selected = Omit<VerifyTaskRow, 'devices'>;
const finish = (r: Selected, devices: Map<number, { id: number; devNo: string }[]>): VerifyTaskRow => ({
  ...r,
  setpoint: Number(r.setpoint),
  humSetpoint: r.humSetpoint === null ? null : Number(r.humSetpoint),
  endedAt: r.endedAt === null ? null : Number(r.endedAt),
  durationMin: Number(r.durationMin),
  devices: devices.get(r.id) ?? [],
});

export async function pageTasks(q: Queryable, scope: Scope, f: TaskFilter): Promise<Paged<VerifyTaskRow>> {
  const k = scoped(q, scope);
  let query = selectTasks(k, scope);
  if (f.name) query = query.where('t.name', 'ilike', contains(f.name));
  if (f.carrierId) query = query.where('t.carrier_id', '=', f.carrierId);
  if (f.status !== undefined) query = query.where('t.status', '=', f.status);
  const page = await paged(query, f, { by: 't.id desc' });
  const devices = await devicesOf(k, page.rows.map((r) => r.id));
  return { ...page, rows: page.rows.map((r) => finish(r as Selected, devices)) };
}

async function oneTask(k: Kysely<DB>, scope: Scope, id: number): Promise<VerifyTaskRow> {
  const r = await selectTasks(k, scope).where('t.id', '=', id).executeTakeFirst();
  if (!r) throw notFound();
  return finish(r as Selected, await devicesOf(k, [id]));
}

/** The window a task's figures are computed over: record start to its end, or to now while it records; null before recording. */
export function recordingWindow(t: Pick<VerifyTaskRow, 'status' | 'recordStart' | 'endTime' | 'endedAt'>, now: number): [number, number] | null {
  if (t.status === VERIFY_STATUS.toStart || t.status === VERIFY_STATUS.starting) return null;
  const end = t.endedAt ?? Math.min(now, t.endTime);
  return end < t.recordStart ? null : [t.recordStart, end];
}

export async function detail(q: Queryable, scope: Scope, id: number, now = Date.now()): Promise<VerifyTaskDetail> {
  const k = scoped(q, scope);
  const task = await oneTask(k, scope, id);
  const window = recordingWindow(task, now);
  if (!window) return { ...task, result: null };
  const probes = await carrierProbes(k, scope, task.carrierId);
  const hum = new Map(probes.map((p) => [p.id, p.hum]));
  // A device moved to another carrier since stays a point; whether it measures humidity is then unknown here, so it counts as not.
  const points = task.devices.map((d) => ({ id: d.id, devNo: d.devNo, hum: hum.get(d.id) ?? false }));
  const result = await mappingOf(q, scope, { points, start: window[0], end: window[1], intervalS: task.intervalS, setpoint: task.setpoint, humSetpoint: task.humSetpoint, centreSensorId: task.centreSensorId });
  return { ...task, result };
}

/** The carrier (404 when out of scope or limit), the set points within its customer's probe ranges, and every device a probe of that carrier. */
async function checkBody(k: Kysely<DB>, scope: Scope, b: Body): Promise<number> {
  const carrier = await rowInScope(k, scope, 'carrier', b.carrierId);
  await checkSetpoints(k, carrier.customer_id, b.setpoint, b.humSetpoint);
  const probes = new Set((await carrierProbes(k, scope, carrier.id)).map((p) => p.id));
  if (!b.sensorIds.every((id) => probes.has(id))) throw new AppError(Code.PARAM_ERROR, 'errors.verifyTask.deviceCarrier', 400, { sensorIds: 'errors.verifyTask.deviceCarrier' });
  return carrier.customer_id;
}

const columns = (b: Body, scope: Scope, now: number) => {
  const past = b.endTime <= now;
  return {
    carrier_id: b.carrierId, name: b.name, description: b.description, conditions: b.conditions, setpoint: b.setpoint, hum_setpoint: b.humSetpoint ?? null,
    centre_sensor_id: b.centreSensorId ?? null, start_time: new Date(b.startTime), record_start: new Date(b.recordStart ?? b.startTime), end_time: new Date(b.endTime),
    interval_s: b.intervalS, data_delay_min: b.dataDelayMin, offline_delay_min: b.offlineDelayMin,
    notify_complete: b.notifyComplete, notify_timeout: b.notifyTimeout, notify_exception: b.notifyException,
    // A past period is an evaluation of what is stored: terminated at once, its recording ended at its end.
    status: past ? VERIFY_STATUS.terminated : VERIFY_STATUS.toStart,
    ended_at: past ? new Date(b.endTime) : null,
    // A changed plan is told afresh.
    delay_noticed: false, offline_noticed: false, exception_seen: 0,
    updated_at: new Date(now), updated_by: scope.name || scope.account,
  };
};

async function setDevices(k: Kysely<DB>, taskId: number, customerId: number, sensorIds: number[]) {
  await k.deleteFrom('verify_task_device').where('task_id', '=', taskId).execute();
  await k.insertInto('verify_task_device').values(sensorIds.map((sensor_id) => ({ task_id: taskId, sensor_id, customer_id: customerId }))).execute();
}

/** The carrier decides the task's customer (a customerId in the body is the form's, not a choice). */
export async function addTask(q: Queryable, scope: Scope, b: Body, now = Date.now()): Promise<{ id: number }> {
  const k = scoped(q, scope);
  const customerId = await checkBody(k, scope, b);
  const row = await k.insertInto('verify_task').values({ customer_id: customerId, ...columns(b, scope, now) }).returning('id').executeTakeFirstOrThrow();
  await setDevices(k, row.id, customerId, b.sensorIds);
  return { id: row.id };
}

/** The task locked for a change, in scope and limit (404 otherwise). */
async function lockTask(k: Kysely<DB>, scope: Scope, id: number) {
  const t = await k.selectFrom('verify_task as t').select(['t.id', 't.customer_id', 't.status', 't.record_start', 't.end_time']).where('t.id', '=', id).where((eb) => sceneLimit(eb, scope, 'verify_task')).forUpdate().executeTakeFirst();
  if (!t) throw notFound();
  return t;
}

export async function updateTask(q: Queryable, scope: Scope, b: UpdateBody, now = Date.now()): Promise<{ id: number }> {
  const k = scoped(q, scope);
  const cur = await lockTask(k, scope, b.id);
  if ((running as number[]).includes(cur.status)) throw stateError('changeRunning');
  const customerId = await checkBody(k, scope, b);
  if (customerId !== cur.customer_id) throw notFound();
  await k.updateTable('verify_task').set(columns(b, scope, now)).where('id', '=', b.id).execute();
  await setDevices(k, b.id, customerId, b.sensorIds);
  return { id: b.id };
}

/** Deletes tasks, all or none: a task in progress is refused (spec §4, §8 "running tasks cannot be deleted"). */
export async function deleteTasks(q: Queryable, scope: Scope, ids: number[]): Promise<{ deleted: number }> {
  const k = scoped(q, scope);
  const rows = await k.selectFrom('verify_task as t').select(['t.id', 't.status']).where('t.id', 'in', ids).where((eb) => sceneLimit(eb, scope, 'verify_task')).forUpdate().execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  if (rows.some((r) => (running as number[]).includes(r.status))) throw stateError('running');
  const r = await k.deleteFrom('verify_task').where('id', 'in', ids).executeTakeFirst();
  return { deleted: Number(r.numDeletedRows) };
}

/** Start recording now: a task to be started or starting records from this moment (its start moves back to now if it was later). */
export async function startRecording(q: Queryable, scope: Scope, id: number, now = Date.now()): Promise<{ id: number }> {
  const k = scoped(q, scope);
  const t = await lockTask(k, scope, id);
  if (t.status !== VERIFY_STATUS.toStart && t.status !== VERIFY_STATUS.starting) throw stateError('state');
  if (t.end_time.getTime() <= now) throw stateError('state');
  const at = new Date(now);
  await k
    .updateTable('verify_task')
    .set((eb) => ({ status: VERIFY_STATUS.recording, record_start: at, start_time: eb.fn('least', ['start_time', sql.val(at)]), updated_at: at, updated_by: scope.name || scope.account }))
    .where('id', '=', id)
    .execute();
  return { id };
}

/** Terminate now: the recording (if any) ends here; no completion notice (someone chose to stop it). */
export async function terminate(q: Queryable, scope: Scope, id: number, now = Date.now()): Promise<{ id: number }> {
  const k = scoped(q, scope);
  const t = await lockTask(k, scope, id);
  if (t.status === VERIFY_STATUS.terminated) throw stateError('state');
  const at = new Date(now);
  await k.updateTable('verify_task').set({ status: VERIFY_STATUS.terminated, ended_at: at, updated_at: at, updated_by: scope.name || scope.account }).where('id', '=', id).execute();
  return { id };
}
