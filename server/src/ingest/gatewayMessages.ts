import type { Db } from '../platform/db/client.js';
import type { Bus, GatewayEventMessage } from '../platform/events.js';
import type { GatewayInfo } from './directory.js';
import type { DeviceEvent, Heartbeat } from './protocol.js';
import { endBlackout, endGatewayConnections, openBlackout, openLowBatteryEvent, toEvent, type DeviceExRow } from '../alarm/devices.js';
import { writeDeviceNotices } from '../alarm/deviceNotices.js';
import { judgeStay, judgeTrip, storePosition } from './positions.js';

/*
 * A gateway's heartbeats and events (device-protocol.md), each in one transaction with what it
 * means for the device exceptions (docs/alarms.md "Connection, power and battery"): a heartbeat
 * is the gateway heard (its connection exception and those of its displays and relays end) and
 * says on what it runs (`power`: "normal" is mains, "standby" its battery: a power failure);
 * `power_fail` / `power_restore` open and end gateway_blackout, `low_battery` opens a sensor's
 * low_battery. The bus hears of it after the commit.
 */

/** The heartbeat's `power` values of spec §3 (gateway power status: normal or standby). */
const MAINS = 'normal';
const ON_BATTERY = 'standby';

/** Stores a heartbeat; false when the gateway row is gone. */
export async function storeHeartbeat(db: Db, bus: Bus, gw: GatewayInfo, hb: Heartbeat): Promise<boolean> {
  const ts = hb.ts ?? Date.now();
  const out = await db.tx(async (q) => {
    // The gateway's state, and its heartbeat history while the parameter keeps one (one statement).
    const [row] = await q.query<{ status: number; old_status: number }>(
      `WITH u AS (
         UPDATE gateway g SET status = CASE WHEN g.status = 2 THEN 2 ELSE 1 END, last_seen_at = now(),
                power = COALESCE($2, g.power), tcp = COALESCE($3, g.tcp), lte = COALESCE($4, g.lte), flight = COALESCE($5, g.flight),
                ip = COALESCE($6, g.ip), wan_ip = COALESCE($7, g.wan_ip), lat = COALESCE($8, g.lat), lng = COALESCE($9, g.lng), tz = COALESCE($10, g.tz)
           FROM (SELECT id, status AS old_status FROM gateway WHERE id = $1 FOR UPDATE) o
          WHERE g.id = o.id
          RETURNING g.status, o.old_status, g.customer_id)
       , h AS (
         INSERT INTO gateway_heartbeat (customer_id, gateway_id, ts, power, tcp, lte, flight, ip, wan_ip, lat, lng)
         SELECT u.customer_id, $1, COALESCE(to_timestamp($11::bigint / 1000.0), now()), $2, $3, $4, $5, $6, $7, $8, $9 FROM u
          WHERE COALESCE((SELECT value FROM setting WHERE key = 'gateway_heartbeat_history'), 'on') = 'on')
       SELECT status, old_status FROM u`,
      [gw.id, hb.power, hb.tcp, hb.lte, hb.flight, hb.ip, hb.wanIp, hb.lat, hb.lng, hb.tz, hb.ts],
    );
    if (!row) return null;
    // A position of a carrier in transport mode (docs/transport.md "Positions"), and the retention it may open or end.
    const stored = hb.lat !== null && hb.lng !== null ? await storePosition(q, gw.id, ts, hb.lat, hb.lng) : null;
    // Places start and end trips (docs/transport.md "Places") before the stay is judged.
    const position = stored ? await judgeTrip(q, stored) : null;
    const stays = position ? await judgeStay(q, position, gw.id) : [];
    const ended: DeviceExRow[] = await endGatewayConnections(q, [gw.id]);
    let opened: DeviceExRow[] = [];
    if (hb.power === MAINS) ended.push(...(await endBlackout(q, gw.id, ts)));
    else if (hb.power === ON_BATTERY) opened = await openBlackout(q, gw.id, ts);
    // A retention just opened is told like a device's exception (judgeStay answers opened ones ongoing, ended ones not).
    await writeDeviceNotices(q, [...opened, ...stays.filter((s) => s.ongoing)]);
    return { row, changed: [...ended, ...opened], stays };
  });
  if (!out) return false;
  if (out.row.status !== out.row.old_status) bus.emit('deviceStatus', { customerId: gw.customerId, kind: 'gateway', id: gw.id, status: out.row.status });
  for (const e of out.changed) bus.emit('exception', toEvent(e));
  for (const e of out.stays) bus.emit('exception', { customerId: e.customer_id, exceptionId: Number(e.id), carrierId: e.carrier_id, sensorId: null, category: 'retention', ongoing: e.ongoing });
  return true;
}

/** Stores an event of the gateway (its sensor, for the device events, already resolved); false for a redelivered one. */
export async function storeEvent(db: Db, bus: Bus, gw: GatewayInfo, ev: DeviceEvent, sensorId: number | null): Promise<boolean> {
  const changed = await db.tx(async (q) => {
    const rows = await q.query(
      `INSERT INTO gateway_event (customer_id, gateway_id, sensor_id, dev_no, type, ts) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING RETURNING id`,
      [gw.customerId, gw.id, sensorId, ev.dev, ev.type, new Date(ev.ts).toISOString()],
    );
    // A redelivery was judged with the first delivery.
    if (!rows.length) return null;
    let opened: DeviceExRow[] = [];
    let ended: DeviceExRow[] = [];
    if (ev.type === 'power_fail') opened = await openBlackout(q, gw.id, ev.ts);
    else if (ev.type === 'power_restore') ended = await endBlackout(q, gw.id, ev.ts);
    else if (ev.type === 'low_battery' && sensorId !== null) opened = await openLowBatteryEvent(q, sensorId, ev.ts);
    await writeDeviceNotices(q, opened);
    return [...ended, ...opened];
  });
  if (!changed) return false;
  const msg: GatewayEventMessage = { customerId: gw.customerId, gatewayId: gw.id, sn: gw.sn, sensorId, devNo: ev.dev, type: ev.type, ts: ev.ts };
  bus.emit('gatewayEvent', msg);
  for (const e of changed) bus.emit('exception', toEvent(e));
  return true;
}
