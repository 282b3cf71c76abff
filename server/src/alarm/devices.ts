import { LOW_BATTERY_MARGIN_V, LOW_BATTERY_VOLTS, type DeviceExceptionCategory } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import type { ExceptionEvent } from '../platform/events.js';
import {
  displayOfflineAfterS,
  familyTaskRuns,
  gatewayOfflineAfterS,
  gatewaySilent,
  relayOfflineAfterS,
  sensorFamilySql,
  sensorOfflineAfterS,
  sensorSilent,
  sensorTaskRuns,
} from './offline.js';

/*
 * Connection, power and battery exceptions (docs/alarms.md "Connection, power and battery"):
 * exception_record rows of type `offline` (sensor_connect, gateway_connect, display_connect,
 * relay_connect) or `power` (gateway_blackout, low_battery). Each statement here opens or ends
 * them for every device at once (the presence scan judges 10,000 sensors in one statement, not
 * one per sensor), and each keeps "one ongoing per subject and category" by its own partial
 * unique index (migration 0036), named as the ON CONFLICT arbiter. Opening is idempotent: a
 * connection exception opens with the status change that marks its device offline, in the same
 * statement, so a scan retried after a failed commit finds the device already offline and opens
 * nothing twice. The callers write the notices (deviceNotices.ts) in the same transaction.
 */

/** A device exception as the statements return it: enough for the bus and the notices. */
export interface DeviceExRow {
  id: number;
  customer_id: number;
  carrier_id: number | null;
  sensor_id: number | null;
  gateway_id: number | null;
  category: DeviceExceptionCategory;
  ongoing: boolean;
}

const RETURNING = 'RETURNING id, customer_id, carrier_id, sensor_id, gateway_id, category, ongoing';
/** The same from an UPDATE … FROM, where the names need the table's alias. */
const RETURNING_E = 'RETURNING e.id, e.customer_id, e.carrier_id, e.sensor_id, e.gateway_id, e.category, e.ongoing';
const ENDED = (at: string) => `ongoing = false, end_ts = greatest(e.start_ts, ${at}), duration_s = round(extract(epoch FROM greatest(e.start_ts, ${at}) - e.start_ts))`;
const ARBITER = {
  sensor: `(sensor_id, category) WHERE ongoing AND type IN ('offline', 'power') AND sensor_id IS NOT NULL`,
  gateway: `(gateway_id, category) WHERE ongoing AND category IN ('gateway_connect', 'gateway_blackout')`,
  display: '(display_id, category) WHERE ongoing AND display_id IS NOT NULL',
  relay: '(relay_id, category) WHERE ongoing AND relay_id IS NOT NULL',
};
/** A sensor's exceptions open while it serves a running carrier with its alarm on, of an active customer (as the data alarms, docs/alarms.md). */
const WATCHED_SENSOR = (s: string) =>
  `EXISTS (SELECT 1 FROM carrier k JOIN customer cu ON cu.id = k.customer_id WHERE k.id = ${s}.carrier_id AND k.alarm_on AND k.status = 1 AND cu.status = 1)`;
/**
 * The monitoring point a gateway's exception is filed under (the list's carrier, the scene limit):
 * its own carrier, else the one point all its sensors serve; none when they serve several (the
 * mail names them all, deviceNotices.ts).
 */
const GATEWAY_CARRIER = (g: string) =>
  `coalesce(${g}.carrier_id, (SELECT CASE WHEN count(DISTINCT gs.carrier_id) = 1 THEN min(gs.carrier_id) END FROM sensor gs WHERE gs.gateway_id = ${g}.id))`;
const ACTIVE_CUSTOMER = (x: string) => `EXISTS (SELECT 1 FROM customer cu WHERE cu.id = ${x}.customer_id AND cu.status = 1)`;

export const toEvent = (r: DeviceExRow): ExceptionEvent => ({
  customerId: r.customer_id,
  exceptionId: Number(r.id),
  carrierId: r.carrier_id,
  sensorId: r.sensor_id,
  gatewayId: r.gateway_id,
  category: r.category,
  ongoing: r.ongoing,
});

/** What a scan step changed: devices marked offline (for deviceStatus events) and exceptions opened or ended. */
export interface Marked {
  offline: { id: number; customer_id: number }[];
  opened: DeviceExRow[];
}

/**
 * One statement: running sensors silent for longer than the offline rule allows become offline
 * (status 0), and those whose task runs and which are watched get a sensor_connect exception that
 * starts when the silence passed the rule (last reading + its interval). Rows an ingest batch
 * holds are skipped (SKIP LOCKED, in id order): that batch is making them fresh, and waiting for
 * them while holding the rows already marked could deadlock with it.
 */
export async function markSilentSensors(q: Queryable): Promise<Marked> {
  const rows = await q.query<{ id: number; customer_id: number; ex: DeviceExRow | null }>(
    `WITH marked AS (
       UPDATE sensor s SET status = 0
         FROM (SELECT id FROM sensor x WHERE x.status = 1 AND ${sensorSilent('x')} ORDER BY id FOR UPDATE SKIP LOCKED) o
        WHERE s.id = o.id AND s.status = 1 AND ${sensorSilent('s')}
        RETURNING s.id, s.customer_id, s.carrier_id, s.gateway_id, s.last_ts, ${sensorOfflineAfterS('s')} AS after_s,
                  ${sensorTaskRuns('s')} AND ${WATCHED_SENSOR('s')} AS alarms
     ), opened AS (
       INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, start_ts, last_ts)
       SELECT customer_id, carrier_id, id, gateway_id, 'offline', 'sensor_connect', coalesce(last_ts + after_s * interval '1 second', now()), last_ts
         FROM marked WHERE alarms ORDER BY id
       ON CONFLICT ${ARBITER.sensor} DO NOTHING
       ${RETURNING}
     )
     SELECT m.id, m.customer_id, to_jsonb(o) AS ex FROM marked m LEFT JOIN opened o ON o.sensor_id = m.id`,
  );
  return { offline: rows.map((r) => ({ id: r.id, customer_id: r.customer_id })), opened: rows.flatMap((r) => (r.ex ? [r.ex] : [])) };
}

/** The same for gateways: silent (no heartbeat, no data) beyond the gateway task's interval. */
export async function markSilentGateways(q: Queryable): Promise<Marked> {
  const rows = await q.query<{ id: number; customer_id: number; ex: DeviceExRow | null }>(
    `WITH marked AS (
       UPDATE gateway g SET status = 0
         FROM (SELECT id FROM gateway x WHERE x.status = 1 AND ${gatewaySilent('x')} ORDER BY id FOR UPDATE SKIP LOCKED) o
        WHERE g.id = o.id AND g.status = 1 AND ${gatewaySilent('g')}
        RETURNING g.id, g.customer_id, ${GATEWAY_CARRIER('g')} AS carrier_id, g.last_seen_at, ${gatewayOfflineAfterS('g')} AS after_s,
                  ${familyTaskRuns('g', 'gateway')} AND ${ACTIVE_CUSTOMER('g')} AS alarms
     ), opened AS (
       INSERT INTO exception_record (customer_id, carrier_id, gateway_id, type, category, start_ts, last_ts)
       SELECT customer_id, carrier_id, id, 'offline', 'gateway_connect', coalesce(last_seen_at + after_s * interval '1 second', now()), last_seen_at
         FROM marked WHERE alarms ORDER BY id
       ON CONFLICT ${ARBITER.gateway} DO NOTHING
       ${RETURNING}
     )
     SELECT m.id, m.customer_id, to_jsonb(o) AS ex FROM marked m LEFT JOIN opened o ON o.gateway_id = m.id`,
  );
  return { offline: rows.map((r) => ({ id: r.id, customer_id: r.customer_id })), opened: rows.flatMap((r) => (r.ex ? [r.ex] : [])) };
}

/**
 * Displays and relays: the console hears nothing from them but through their gateway (the
 * protocol has no message of a display's or a relay's own), so their connection is their
 * gateway's presence, judged by their own task's interval (docs/devices.md). One statement per
 * kind; a silence already covered by an exception (ongoing, or ended after the gateway's last
 * contact, e.g. because the device was stopped meanwhile) opens nothing.
 */
export async function openBusDeviceConnections(q: Queryable): Promise<DeviceExRow[]> {
  const opened: DeviceExRow[] = [];
  for (const kind of ['display', 'relay'] as const) {
    const after = kind === 'display' ? displayOfflineAfterS('d') : relayOfflineAfterS('d');
    opened.push(
      ...(await q.query<DeviceExRow>(
        `INSERT INTO exception_record (customer_id, carrier_id, gateway_id, ${kind}_id, type, category, start_ts, last_ts)
         SELECT d.customer_id, d.carrier_id, d.gateway_id, d.id, 'offline', '${kind}_connect', g.last_seen_at + ${after} * interval '1 second', g.last_seen_at
           FROM ${kind} d JOIN gateway g ON g.id = d.gateway_id
          WHERE d.status <> 2 AND g.status <> 2 AND g.last_seen_at < now() - ${after} * interval '1 second'
            AND ${familyTaskRuns('d', kind)} AND ${ACTIVE_CUSTOMER('d')}
            AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.${kind}_id = d.id AND e.category = '${kind}_connect'
                             AND (e.ongoing OR e.end_ts >= g.last_seen_at))
          ORDER BY d.id
         ON CONFLICT ${ARBITER[kind]} DO NOTHING
         ${RETURNING}`,
      )),
    );
  }
  return opened;
}

/** The low-battery threshold of a sensor row, in volts (contract LOW_BATTERY_VOLTS by its family). */
export const batteryThresholdSql = (s: string) =>
  `(CASE ${sensorFamilySql(`${s}.type`)} ${Object.entries(LOW_BATTERY_VOLTS).map(([f, v]) => `WHEN '${f}' THEN ${v}`).join(' ')} END)::real`;

/**
 * Low battery from the sensors' latest values (each reading's `volt`): below the threshold of its
 * type opens low_battery (first and worst value, the threshold as its limit); an ongoing one
 * follows the lowest value and ends at the first reading at or above threshold + margin (a new
 * battery). Two statements for every sensor at once.
 */
export async function judgeBatteries(q: Queryable): Promise<{ opened: DeviceExRow[]; ended: DeviceExRow[] }> {
  const ended = await q.query<DeviceExRow>(
    `UPDATE exception_record e SET
            ${ENDED('s.last_ts')}
       FROM sensor s
      WHERE e.ongoing AND e.category = 'low_battery' AND e.sensor_id = s.id AND s.last_ts > e.start_ts
        AND s.last_volt >= ${batteryThresholdSql('s')} + ${LOW_BATTERY_MARGIN_V}
      ${RETURNING_E}`,
  );
  await q.query(
    `UPDATE exception_record e SET peak_value = s.last_volt, last_ts = s.last_ts
       FROM sensor s
      WHERE e.ongoing AND e.category = 'low_battery' AND e.sensor_id = s.id AND s.last_volt < coalesce(e.peak_value, 'Infinity')`,
  );
  const opened = await q.query<DeviceExRow>(
    `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, start_ts, last_ts, first_value, peak_value, limit_min)
     SELECT s.customer_id, s.carrier_id, s.id, s.gateway_id, 'power', 'low_battery', s.last_ts, s.last_ts, s.last_volt, s.last_volt, ${batteryThresholdSql('s')}
       FROM sensor s
      WHERE s.status = 1 AND s.last_volt < ${batteryThresholdSql('s')} AND ${WATCHED_SENSOR('s')}
        AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.sensor_id = s.id AND e.category = 'low_battery' AND (e.ongoing OR e.end_ts >= s.last_ts))
      ORDER BY s.id
     ON CONFLICT ${ARBITER.sensor} DO NOTHING
     ${RETURNING}`,
  );
  return { opened, ended };
}

/**
 * Ends what the scan finds over (a safety net behind the writer and the heartbeat, which end
 * connections at once): the subject deleted, stopped, lent to another customer or its customer
 * cancelled (ended now: nothing watches it any more); a sensor or gateway running again (ended at
 * its last contact); a display's or relay's gateway heard again after the silence (ended then).
 */
export async function endSettled(q: Queryable): Promise<DeviceExRow[]> {
  return q.query<DeviceExRow>(
    `WITH settled AS (
       SELECT e.id,
              CASE
                WHEN e.category IN ('sensor_connect', 'low_battery') THEN
                  CASE WHEN s.id IS NULL OR s.status = 2 OR s.customer_id <> e.customer_id OR cu.status <> 1 THEN now()
                       WHEN e.category = 'sensor_connect' AND s.status = 1 THEN s.last_ts END
                WHEN e.category IN ('gateway_connect', 'gateway_blackout') THEN
                  CASE WHEN g.id IS NULL OR g.status = 2 OR cu.status <> 1 THEN now()
                       WHEN e.category = 'gateway_connect' AND g.status = 1 THEN g.last_seen_at END
                ELSE
                  CASE WHEN coalesce(d.id, r.id) IS NULL OR coalesce(d.status, r.status) = 2 OR cu.status <> 1 THEN now()
                       WHEN bg.last_seen_at > coalesce(e.last_ts, e.start_ts) THEN bg.last_seen_at END
              END AS end_at
         FROM exception_record e
         JOIN customer cu ON cu.id = e.customer_id
         LEFT JOIN sensor s ON s.id = e.sensor_id
         LEFT JOIN gateway g ON g.id = e.gateway_id
         LEFT JOIN display d ON d.id = e.display_id
         LEFT JOIN relay r ON r.id = e.relay_id
         LEFT JOIN gateway bg ON bg.id = coalesce(d.gateway_id, r.gateway_id)
        WHERE e.ongoing AND e.type IN ('offline', 'power')
     )
     UPDATE exception_record e SET ${ENDED('x.end_at')}
       FROM settled x WHERE e.id = x.id AND x.end_at IS NOT NULL
     ${RETURNING_E}`,
  );
}

/**
 * The ingest writer, in its batch's transaction: sensors a reading brought back (offline →
 * running) end their connection exception at that reading's time (never before its start).
 */
export async function endSensorConnections(q: Queryable, back: { id: number; ts: number }[]): Promise<DeviceExRow[]> {
  if (!back.length) return [];
  back.sort((a, b) => a.id - b.id);
  return q.query<DeviceExRow>(
    `UPDATE exception_record e SET ${ENDED('to_timestamp(u.t / 1000.0)')}
       FROM unnest($1::int[], $2::float8[]) AS u(id, t)
      WHERE e.sensor_id = u.id AND e.category = 'sensor_connect' AND e.ongoing
     ${RETURNING_E}`,
    [back.map((b) => b.id), back.map((b) => b.ts)],
  );
}

/**
 * A gateway heard again (a heartbeat, or data that brought it back): its connection exception
 * and those of the displays and relays on it end now.
 */
export async function endGatewayConnections(q: Queryable, gatewayIds: number[]): Promise<DeviceExRow[]> {
  if (!gatewayIds.length) return [];
  return q.query<DeviceExRow>(
    `UPDATE exception_record e SET ${ENDED('now()')}
      WHERE e.ongoing AND (
              (e.category = 'gateway_connect' AND e.gateway_id = ANY($1::int[]))
           OR (e.category = 'display_connect' AND e.display_id IN (SELECT id FROM display WHERE gateway_id = ANY($1::int[])))
           OR (e.category = 'relay_connect' AND e.relay_id IN (SELECT id FROM relay WHERE gateway_id = ANY($1::int[]))))
     ${RETURNING_E}`,
    [[...gatewayIds].sort((a, b) => a - b)],
  );
}

/**
 * A gateway's power failure from `ts` (a power_fail event, or a heartbeat saying it runs on its
 * battery): opens gateway_blackout unless one is ongoing or an earlier one already covers `ts`.
 * A power_restore already received for a later time (events arrive out of order) ends it at once.
 */
export async function openBlackout(q: Queryable, gatewayId: number, ts: number): Promise<DeviceExRow[]> {
  return q.query<DeviceExRow>(
    `INSERT INTO exception_record (customer_id, carrier_id, gateway_id, type, category, start_ts, last_ts, ongoing, end_ts, duration_s)
     SELECT g.customer_id, ${GATEWAY_CARRIER('g')}, g.id, 'power', 'gateway_blackout', t.at, t.at, r.ts IS NULL, r.ts, round(extract(epoch FROM r.ts - t.at))
       FROM gateway g CROSS JOIN (SELECT to_timestamp($2::float8 / 1000.0) AS at) t
       LEFT JOIN LATERAL (SELECT ev.ts FROM gateway_event ev WHERE ev.gateway_id = g.id AND ev.type = 'power_restore' AND ev.ts > t.at ORDER BY ev.ts LIMIT 1) r ON true
      WHERE g.id = $1 AND g.status <> 2 AND ${ACTIVE_CUSTOMER('g')}
        AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.gateway_id = g.id AND e.category = 'gateway_blackout'
                         AND (e.ongoing OR (e.start_ts <= t.at AND e.end_ts >= t.at)))
     ON CONFLICT ${ARBITER.gateway} DO NOTHING
     ${RETURNING}`,
    [gatewayId, ts],
  );
}

/** Mains power back at `ts` (power_restore, or a heartbeat on mains): the ongoing blackout that began before it ends. */
export async function endBlackout(q: Queryable, gatewayId: number, ts: number): Promise<DeviceExRow[]> {
  return q.query<DeviceExRow>(
    `UPDATE exception_record e SET ${ENDED('to_timestamp($2::float8 / 1000.0)')}
      WHERE e.gateway_id = $1 AND e.category = 'gateway_blackout' AND e.ongoing AND e.start_ts <= to_timestamp($2::float8 / 1000.0)
     ${RETURNING_E}`,
    [gatewayId, ts],
  );
}

/** A gateway reports a sensor's battery low (`low_battery` event): low_battery opens at `ts` unless one is ongoing or covers it. */
export async function openLowBatteryEvent(q: Queryable, sensorId: number, ts: number): Promise<DeviceExRow[]> {
  return q.query<DeviceExRow>(
    `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, start_ts, last_ts, limit_min)
     SELECT s.customer_id, s.carrier_id, s.id, s.gateway_id, 'power', 'low_battery', t.at, t.at, ${batteryThresholdSql('s')}
       FROM sensor s CROSS JOIN (SELECT to_timestamp($2::float8 / 1000.0) AS at) t
      WHERE s.id = $1 AND s.status <> 2 AND ${WATCHED_SENSOR('s')}
        AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.sensor_id = s.id AND e.category = 'low_battery'
                         AND (e.ongoing OR (e.start_ts <= t.at AND e.end_ts >= t.at)))
     ON CONFLICT ${ARBITER.sensor} DO NOTHING
     ${RETURNING}`,
    [sensorId, ts],
  );
}
