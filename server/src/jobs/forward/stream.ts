import { sql } from 'kysely';
import { DEVICE_STATUS } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { crossTenant } from '../../platform/db/kysely.js';
import type { RemoteConfig } from './links.js';

/*
 * What the forwarder reads and writes (docs/forwarding.md "Durable, at least once"). Readings
 * are read from the reading table by its primary key (sensor_id, ts), from each setting's cursor
 * on, in the order (ts, sensor_id): ingest writes nothing for forwarding. A carrier's stream
 * stops at its watermark, the oldest latest reading of its running sensors, so a sensor whose
 * reading is still on its way is not overtaken by its neighbours: a carrier's readings go out in
 * the order of time. A sensor that falls offline no longer holds the watermark back.
 */

const why = 'the forwarder reads the settings, readings and exceptions of every customer it forwards';

export interface ServerRow extends RemoteConfig {
  id: number;
  customerId: number;
  passwordEnc: string;
  updatedAt: number;
}

export interface BindingRow {
  id: number;
  customerId: number;
  carrierId: number | null;
  carrierName: string | null;
  sensorId: number | null;
  exceptions: boolean;
  createdAt: Date;
  cursorTs: Date;
  cursorSensor: number;
  cursorEx: number;
  platform: { code: string; vendorCode: string; appId: string; keyEnc: string } | null;
}

export interface ReadingOut {
  sensorId: number;
  devNo: string;
  ts: Date;
  temp: number | null;
  hum: number | null;
  volt: number | null;
}

export interface ExceptionOut {
  id: number;
  category: string;
  type: string;
  sensorId: number | null;
  startTs: Date;
  firstValue: number | null;
  limitMin: number | null;
  limitMax: number | null;
}

/** The servers that have something to forward: enabled, with at least one enabled setting. */
export async function activeServers(db: Db): Promise<ServerRow[]> {
  const rows = await crossTenant(db, why)
    .selectFrom('forward_server as f')
    .selectAll('f')
    .select(sql<number>`(extract(epoch from f.updated_at) * 1000)::float8`.as('updatedMs'))
    .where('f.enabled', '=', true)
    .where((eb) => eb.exists(eb.selectFrom('forward_binding as b').select('b.id').whereRef('b.server_id', '=', 'f.id').where('b.enabled', '=', true)))
    .orderBy('f.id')
    .execute();
  return rows.map((f) => ({
    id: f.id,
    customerId: f.customer_id,
    type: f.type as 'mqtt' | 'http',
    host: f.host,
    port: f.port,
    tls: f.tls,
    path: f.path,
    clientId: f.client_id,
    username: f.username,
    password: '',
    passwordEnc: f.password_enc,
    qos: f.qos as 0 | 1 | 2,
    timeoutS: f.timeout_s,
    heartbeatS: f.heartbeat_s,
    pubTopic: f.pub_topic,
    updatedAt: Number(f.updatedMs),
  }));
}

export async function bindingsOf(q: Queryable, serverId: number): Promise<BindingRow[]> {
  const rows = await crossTenant(q, why)
    .selectFrom('forward_binding as b')
    .leftJoin('forward_platform as p', 'p.id', 'b.platform_id')
    .leftJoin('carrier as c', 'c.id', 'b.carrier_id')
    .select([
      'b.id', 'b.customer_id', 'b.carrier_id', 'c.name as carrier_name', 'b.sensor_id', 'b.exceptions', 'b.created_at', 'b.cursor_ts', 'b.cursor_sensor', 'b.cursor_ex',
      'p.code', 'p.vendor_code', 'p.app_id', 'p.key_enc',
    ])
    .where('b.server_id', '=', serverId)
    .where('b.enabled', '=', true)
    .orderBy('b.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    customerId: r.customer_id,
    carrierId: r.carrier_id,
    carrierName: r.carrier_name,
    sensorId: r.sensor_id,
    exceptions: r.exceptions,
    createdAt: r.created_at,
    cursorTs: r.cursor_ts,
    cursorSensor: r.cursor_sensor,
    cursorEx: Number(r.cursor_ex),
    platform: r.code === null ? null : { code: r.code, vendorCode: r.vendor_code ?? '', appId: r.app_id ?? '', keyEnc: r.key_enc ?? '' },
  }));
}

/** The sensors of a setting and how far its stream may go (the watermark; null: no limit). */
async function sensorsOf(q: Queryable, b: BindingRow): Promise<{ ids: number[]; watermark: Date | null }> {
  if (b.sensorId !== null) return { ids: [b.sensorId], watermark: null };
  const rows = await crossTenant(q, why).selectFrom('sensor').select(['id', 'status', 'last_ts']).where('carrier_id', '=', b.carrierId!).execute();
  const running = rows.filter((r) => r.status === DEVICE_STATUS.running && r.last_ts);
  const watermark = running.length ? new Date(Math.min(...running.map((r) => r.last_ts!.getTime()))) : null;
  return { ids: rows.map((r) => r.id), watermark };
}

/**
 * The next readings of a setting after its cursor, in stream order, at most `limit`. Each sensor
 * gives its first `limit` rows after the cursor by its own index range (a LATERAL per sensor),
 * and the merge keeps the first `limit` of those: the first `limit` of the stream are among them,
 * and a round reads at most `limit` rows per sensor however long the backlog is.
 */
export async function nextReadings(q: Queryable, b: BindingRow, limit: number): Promise<ReadingOut[]> {
  const { ids, watermark } = await sensorsOf(q, b);
  if (!ids.length) return [];
  const upTo = watermark ?? new Date('9999-12-31T00:00:00Z');
  const { rows } = await sql<{ sensor_id: number; dev_no: string; ts: Date; temp: number | null; hum: number | null; volt: number | null }>`
    SELECT x.sensor_id, s.dev_no, x.ts, x.temp, x.hum, x.volt
      FROM unnest(${ids}::int[]) AS u(id)
      JOIN sensor s ON s.id = u.id
      CROSS JOIN LATERAL (
        SELECT r.sensor_id, r.ts, r.temp, r.hum, r.volt FROM reading r
         WHERE r.sensor_id = u.id AND r.ts >= ${b.cursorTs}::timestamptz AND r.ts <= ${upTo}::timestamptz
           AND (r.ts, r.sensor_id) > (${b.cursorTs}::timestamptz, ${b.cursorSensor}::int)
         ORDER BY r.ts LIMIT ${limit}) x
     ORDER BY x.ts, x.sensor_id LIMIT ${limit}`.execute(crossTenant(q, why));
  return rows.map((r) => ({ sensorId: r.sensor_id, devNo: r.dev_no, ts: r.ts, temp: r.temp, hum: r.hum, volt: r.volt }));
}

/** Exceptions opened on the setting's carrier or sensor since it was made, after its cursor. */
export async function nextExceptions(q: Queryable, b: BindingRow, limit: number): Promise<ExceptionOut[]> {
  if (!b.exceptions) return [];
  const rows = await crossTenant(q, why)
    .selectFrom('exception_record as e')
    .select(['e.id', 'e.category', 'e.type', 'e.sensor_id', 'e.start_ts', 'e.first_value', 'e.limit_min', 'e.limit_max'])
    .where(b.carrierId !== null ? 'e.carrier_id' : 'e.sensor_id', '=', (b.carrierId ?? b.sensorId)!)
    .where('e.customer_id', '=', b.customerId)
    .where('e.id', '>', String(b.cursorEx) as unknown as number)
    .where('e.created_at', '>=', b.createdAt)
    .orderBy('e.id')
    .limit(limit)
    .execute();
  return rows.map((e) => ({
    id: Number(e.id), category: e.category, type: e.type, sensorId: e.sensor_id, startTs: e.start_ts, firstValue: e.first_value, limitMin: e.limit_min, limitMax: e.limit_max,
  }));
}

/** Readings committed past the cursor of each setting (counted up to `cap` each): the backlog. */
export async function backlogOf(q: Queryable, bindings: BindingRow[], cap = 100_000): Promise<number> {
  let total = 0;
  for (const b of bindings) {
    const { ids } = await sensorsOf(q, b);
    if (!ids.length) continue;
    const sub = crossTenant(q, why)
      .selectFrom('reading as r')
      .select('r.ts')
      .where('r.sensor_id', 'in', ids)
      .where(sql<boolean>`(r.ts, r.sensor_id) > (${b.cursorTs}::timestamptz, ${b.cursorSensor}::int)`)
      .where('r.ts', '>=', b.cursorTs)
      .limit(cap);
    const row = await crossTenant(q, why).selectFrom(sub.as('w')).select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
    total += Number(row?.n ?? 0);
  }
  return total;
}

/**
 * Takes or keeps the server's lease for `leaseMs` (one console forwards each server) and
 * answers its back-off: null when another console holds it.
 */
export async function lease(db: Db, serverId: number, customerId: number, owner: string, leaseMs: number): Promise<{ retryAt: number; failures: number } | null> {
  const k = crossTenant(db, why);
  await k.insertInto('forward_state').values({ server_id: serverId, customer_id: customerId }).onConflict((oc) => oc.column('server_id').doNothing()).execute();
  const row = await k
    .updateTable('forward_state')
    .set({ owner, lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'` })
    .where('server_id', '=', serverId)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('lease_until', '<', sql<Date>`now()`)]))
    .returning([sql<number>`(extract(epoch from retry_at) * 1000)::float8`.as('retryAt'), 'failures'])
    .executeTakeFirst();
  return row ? { retryAt: Number.isFinite(Number(row.retryAt)) ? Number(row.retryAt) : 0, failures: row.failures } : null;
}

export interface Advance {
  bindingId: number;
  cursorTs?: Date;
  cursorSensor?: number;
  cursorEx?: number;
}

/**
 * After the remote acknowledged a batch: the cursors move and the status is written, in one
 * transaction and only while this console still holds the lease (else nothing moves: the batch
 * counts as not sent, and at worst goes out once more from the new holder).
 */
export async function advance(db: Db, serverId: number, owner: string, moves: Advance[], sent: number): Promise<boolean> {
  return db.tx(async (q) => {
    const k = crossTenant(q, why);
    const held = await k
      .updateTable('forward_state')
      .set({
        connected: true,
        failures: 0,
        retry_at: sql<Date>`'-infinity'::timestamptz`,
        forwarded: sql<number>`forwarded + ${sent}`,
        last_forwarded_at: sql<Date>`now()`,
      })
      .where('server_id', '=', serverId)
      .where('owner', '=', owner)
      .returning('server_id')
      .executeTakeFirst();
    if (!held) return false;
    for (const m of moves) {
      await k
        .updateTable('forward_binding')
        .set({
          ...(m.cursorTs ? { cursor_ts: m.cursorTs, cursor_sensor: m.cursorSensor! } : {}),
          ...(m.cursorEx !== undefined ? { cursor_ex: String(m.cursorEx) as unknown as number } : {}),
        })
        .where('id', '=', m.bindingId)
        .execute();
    }
    return true;
  });
}

/** A failed try: the error the page shows, and when to try again. */
export async function failed(db: Db, serverId: number, owner: string, message: string, retryInMs: number): Promise<void> {
  await crossTenant(db, why)
    .updateTable('forward_state')
    .set({
      connected: false,
      failures: sql<number>`failures + 1`,
      last_error: message.slice(0, 500),
      last_error_at: sql<Date>`now()`,
      retry_at: sql<Date>`now() + ${retryInMs} * interval '1 millisecond'`,
    })
    .where('server_id', '=', serverId)
    .where('owner', '=', owner)
    .execute();
}

/** The connection's state and the backlog, now and then, under the lease. */
export async function idle(db: Db, serverId: number, owner: string, connected: boolean, backlog: number): Promise<void> {
  await crossTenant(db, why).updateTable('forward_state').set({ connected, backlog }).where('server_id', '=', serverId).where('owner', '=', owner).execute();
}

/** Lets the lease go (a console stopping): another console takes the server over at once. */
export async function release(db: Db, serverId: number, owner: string): Promise<void> {
  await crossTenant(db, why)
    .updateTable('forward_state')
    .set({ owner: '', lease_until: sql<Date>`'-infinity'::timestamptz`, connected: false })
    .where('server_id', '=', serverId)
    .where('owner', '=', owner)
    .execute();
}

/** Every server's status, for /metrics. */
export async function allStates(db: Db) {
  return crossTenant(db, why)
    .selectFrom('forward_state as st')
    .innerJoin('forward_server as f', 'f.id', 'st.server_id')
    .select(['st.server_id', 'st.customer_id', 'f.name', 'st.connected', 'st.forwarded', 'st.backlog', 'st.failures', sql<number | null>`(extract(epoch from st.last_forwarded_at) * 1000)::float8`.as('lastMs')])
    .execute();
}
