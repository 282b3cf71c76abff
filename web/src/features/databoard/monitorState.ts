/**
 * Pure state of the live board: the carriers of a page (GET /service/dm/monitorPage, monitorTable) and the merge
 * of the live stream's events into them. No React here, so it is tested on its own.
 */
import { boardState, DEVICE_STATUS, isDataCategory, sensorOnline, type BoardState, type DeviceStatusEvent, type ExceptionEvent, type LiveEvent, type LiveReading, type LiveSensor, type MonitorCarrier as ContractMonitorCarrier } from '@coldwatch/contract';

/** A sensor on the board: the list's live sensor, and the categories of its ongoing exceptions (kept from the stream). */
export type MonitorSensor = LiveSensor & { ongoing?: string[] };

/** A carrier on the board: the monitor list's carrier with board sensors. */
export type MonitorCarrier = Omit<ContractMonitorCarrier, 'sensors'> & { sensors: MonitorSensor[] };

/** Where each sensor sits on the board: sensor id → carrier index (built once per batch of events). */
type SensorIndex = Map<number, number>;

function indexOf(carriers: MonitorCarrier[]): SensorIndex {
  const index: SensorIndex = new Map();
  carriers.forEach((c, i) => c.sensors.forEach((s) => index.set(s.id, i)));
  return index;
}

function mapSensor(carriers: MonitorCarrier[], sensorId: number, f: (s: MonitorSensor) => MonitorSensor, index: SensorIndex = indexOf(carriers)): MonitorCarrier[] {
  const ci = index.get(sensorId);
  if (ci === undefined) return carriers;
  const c = carriers[ci];
  const i = c.sensors.findIndex((s) => s.id === sensorId);
  if (i < 0) return carriers;
  const s2 = f(c.sensors[i]);
  if (s2 === c.sensors[i]) return carriers;
  const sensors = c.sensors.slice();
  sensors[i] = s2;
  const next = carriers.slice();
  next[ci] = { ...c, sensors };
  return next;
}

const FIELDS = ['temp', 'hum', 'volt', 'rssi', 'lqi', 'gas', 'door'] as const;

/** A reading: newer than what the board shows → its values replace the sensor's; the sensor is online. */
export function applyReading(carriers: MonitorCarrier[], ev: LiveReading, index?: SensorIndex): MonitorCarrier[] {
  return mapSensor(carriers, ev.sensorId, (s) => {
    if (s.lastTs !== null && ev.ts < s.lastTs) return s; // an older, late reading
    const next: MonitorSensor = { ...s, lastTs: ev.ts };
    for (const f of FIELDS) {
      const v = ev[f];
      if (v !== undefined && v !== null) next[f] = v;
    }
    if (next.status === DEVICE_STATUS.offline) next.status = DEVICE_STATUS.running;
    return next;
  }, index);
}

/** A sensor's run status changed (a gateway's status does not show on the board's sensors). */
export function applyDeviceStatus(carriers: MonitorCarrier[], ev: DeviceStatusEvent, index?: SensorIndex): MonitorCarrier[] {
  if (ev.kind !== 'sensor') return carriers;
  return mapSensor(carriers, ev.id, (s) => (s.status === ev.status ? s : { ...s, status: ev.status }), index);
}

/** The sensor with the category added to (ongoing) or taken from its ongoing categories. */
const withCategory = (s: MonitorSensor, category: string, ongoing: boolean): MonitorSensor => {
  const cur = s.ongoing ?? [];
  const has = cur.includes(category);
  if (ongoing && !has) return { ...s, ongoing: [...cur, category] };
  if (!ongoing && has) return { ...s, ongoing: cur.filter((c) => c !== category) };
  return s;
};

/**
 * An exception opened or closed: kept as the sensor's list of ongoing categories. A gateway's
 * power failure (no sensor, its gateway named) is kept on every sensor reporting through it: the
 * board shows it as their state (docs/devices.md "Monitor tasks").
 */
export function applyException(carriers: MonitorCarrier[], ev: ExceptionEvent, index?: SensorIndex): MonitorCarrier[] {
  if (ev.sensorId === null || ev.sensorId === undefined) {
    if (ev.category !== GATEWAY_POWER || ev.gatewayId === null || ev.gatewayId === undefined) return carriers;
    let changed = false;
    const next = carriers.map((c) => {
      if (!c.sensors.some((s) => s.gatewayId === ev.gatewayId)) return c;
      const sensors = c.sensors.map((s) => (s.gatewayId === ev.gatewayId ? withCategory(s, ev.category, ev.ongoing) : s));
      if (sensors.every((s, i) => s === c.sensors[i])) return c;
      changed = true;
      return { ...c, sensors };
    });
    return changed ? next : carriers;
  }
  return mapSensor(carriers, ev.sensorId, (s) => withCategory(s, ev.category, ev.ongoing), index);
}

/** The gateway category the board shows on the gateway's sensors. */
const GATEWAY_POWER = 'gateway_blackout';

/** Reducer for the board: one stream event at a time. */
export function applyEvent(carriers: MonitorCarrier[], ev: LiveEvent, index?: SensorIndex): MonitorCarrier[] {
  switch (ev.type) {
    case 'reading':
      return applyReading(carriers, ev.data, index);
    case 'exception':
      return applyException(carriers, ev.data, index);
    case 'deviceStatus':
      return applyDeviceStatus(carriers, ev.data, index);
    default:
      return carriers;
  }
}

/**
 * A batch of stream events: the sensor index is built once, so a board of 10,000 carriers pays
 * one pass per batch, not one per event; untouched carriers keep their identity (their cards
 * do not render again).
 */
export function applyEvents(carriers: MonitorCarrier[], events: LiveEvent[]): MonitorCarrier[] {
  if (events.length === 0) return carriers;
  const index = indexOf(carriers);
  return events.reduce((cur, ev) => applyEvent(cur, ev, index), carriers);
}

/**
 * A fresh list from the server replaces the board, but a sensor keeps a newer reading
 * the stream delivered after the list was read.
 */
export function mergeFresh(fresh: MonitorCarrier[], current: MonitorCarrier[]): MonitorCarrier[] {
  const cur = new Map<number, MonitorSensor>();
  for (const c of current) for (const s of c.sensors) cur.set(s.id, s);
  return fresh.map((c) => ({
    ...c,
    sensors: c.sensors.map((s) => {
      const old = cur.get(s.id);
      // The list tells the device's own exceptions (offline, power, battery); the stream told the
      // temperature and humidity ones, which the list does not carry: both are kept.
      const streamed = (old?.ongoing ?? []).filter(isDataCategory);
      const ongoing = s.ongoing ? [...s.ongoing, ...streamed.filter((c) => !s.ongoing!.includes(c))] : old?.ongoing;
      const withOngoing = ongoing ? { ...s, ongoing } : s;
      if (old && old.lastTs !== null && (s.lastTs === null || old.lastTs > s.lastTs)) {
        return { ...withOngoing, lastTs: old.lastTs, temp: old.temp, hum: old.hum, volt: old.volt, rssi: old.rssi, lqi: old.lqi, gas: old.gas, door: old.door };
      }
      return withOngoing;
    }),
  }));
}

/** A sensor greys out when it is offline or stopped. */
export const isOffline = (s: MonitorSensor) => !sensorOnline(s);

/** The carrier's state on every view (board card, table, map, overview, home): the contract's one definition. */
export const carrierState = (c: MonitorCarrier): BoardState => boardState(c);
