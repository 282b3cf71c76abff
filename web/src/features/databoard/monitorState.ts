/**
 * Pure state of the live board: the carriers of GET /service/dm/monitorList and the merge
 * of the live stream's events into them. No React here, so it is tested on its own.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { DEVICE_STATUS } from '@coldwatch/contract';

dayjs.extend(utc);

export interface MonitorSensor {
  id: number;
  devNo: string;
  type: string;
  status: number;
  lastTs: number | null;
  lastTemp: number | null;
  lastHum: number | null;
  lastVolt?: number | null;
  lastRssi?: number | null;
  lastLqi?: number | null;
  lastGas?: number | null;
  lastDoor?: number | null;
  /** Categories of the sensor's ongoing exceptions (kept from the stream). */
  ongoing?: string[];
}

export interface MonitorCarrier {
  id: number;
  name: string;
  type: number;
  status: number;
  sceneId: number;
  tempMin: number | null;
  tempMax: number | null;
  humMin: number | null;
  humMax: number | null;
  /** Customer time zone as "+08:00", when the server sends it. */
  timeZone?: string | null;
  sensors: MonitorSensor[];
  [k: string]: unknown;
}

export interface ReadingEvent {
  customerId?: number;
  sensorId: number;
  devNo?: string;
  carrierId?: number | null;
  ts: number;
  temp?: number | null;
  hum?: number | null;
  volt?: number | null;
  rssi?: number | null;
  lqi?: number | null;
  gas?: number | null;
  door?: number | null;
}

export interface ExceptionEvent {
  exceptionId: number;
  carrierId: number | null;
  sensorId: number | null;
  category: string;
  ongoing: boolean;
}

export interface DeviceStatusEvent {
  kind: 'gateway' | 'sensor' | string;
  id: number;
  status: number;
}

export type RangeState = 'high' | 'low' | 'ok' | 'none';

/** Where a value lies against its zone: spec §9 colours above max orange, below min blue. */
export function rangeState(value: number | null | undefined, min: number | null | undefined, max: number | null | undefined): RangeState {
  if (value === null || value === undefined || Number.isNaN(value)) return 'none';
  if (max !== null && max !== undefined && value > max) return 'high';
  if (min !== null && min !== undefined && value < min) return 'low';
  return 'ok';
}

export const RANGE_COLORS: Record<RangeState, string> = {
  high: '#fa8c16', // orange
  low: '#1677ff', // blue
  ok: '#389e0d', // green
  none: '#8c8c8c',
};

/** Numbers from the server may come as strings (PostgreSQL numeric). */
export const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** Normalise one carrier of the monitor list (numeric strings, ISO times → ms). */
export function normaliseCarrier(raw: any): MonitorCarrier {
  return {
    ...raw,
    id: Number(raw.id),
    type: Number(raw.type),
    status: Number(raw.status),
    sceneId: Number(raw.sceneId),
    tempMin: num(raw.tempMin),
    tempMax: num(raw.tempMax),
    humMin: num(raw.humMin),
    humMax: num(raw.humMax),
    // The server names the latest values temp/hum/…; older shapes used lastTemp/lastHum/….
    sensors: (raw.sensors ?? []).map((s: any) => ({
      ...s,
      id: Number(s.id),
      status: Number(s.status),
      lastTs: toMs(s.lastTs),
      lastTemp: num(s.lastTemp ?? s.temp),
      lastHum: num(s.lastHum ?? s.hum),
      lastVolt: num(s.lastVolt ?? s.volt),
      lastRssi: num(s.lastRssi ?? s.rssi),
      lastLqi: num(s.lastLqi ?? s.lqi),
      lastGas: num(s.lastGas ?? s.gas),
      lastDoor: num(s.lastDoor ?? s.door),
    })),
  };
}

export function toMs(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return v;
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const d = Date.parse(String(v));
  return Number.isFinite(d) ? d : null;
}

function mapSensor(carriers: MonitorCarrier[], sensorId: number, f: (s: MonitorSensor) => MonitorSensor): MonitorCarrier[] {
  let changed = false;
  const next = carriers.map((c) => {
    const i = c.sensors.findIndex((s) => s.id === sensorId);
    if (i < 0) return c;
    const s2 = f(c.sensors[i]);
    if (s2 === c.sensors[i]) return c;
    changed = true;
    const sensors = c.sensors.slice();
    sensors[i] = s2;
    return { ...c, sensors };
  });
  return changed ? next : carriers;
}

const FIELDS = [
  ['temp', 'lastTemp'],
  ['hum', 'lastHum'],
  ['volt', 'lastVolt'],
  ['rssi', 'lastRssi'],
  ['lqi', 'lastLqi'],
  ['gas', 'lastGas'],
  ['door', 'lastDoor'],
] as const;

/** A reading: newer than what the board shows → its values replace the sensor's; the sensor is online. */
export function applyReading(carriers: MonitorCarrier[], ev: ReadingEvent): MonitorCarrier[] {
  return mapSensor(carriers, ev.sensorId, (s) => {
    if (s.lastTs !== null && ev.ts < s.lastTs) return s; // an older, late reading
    const next: MonitorSensor = { ...s, lastTs: ev.ts };
    for (const [from, to] of FIELDS) {
      const v = ev[from];
      if (v !== undefined && v !== null) (next as any)[to] = v;
    }
    if (next.status === DEVICE_STATUS.offline) next.status = DEVICE_STATUS.running;
    return next;
  });
}

/** A sensor's run status changed (a gateway's status does not show on the board's sensors). */
export function applyDeviceStatus(carriers: MonitorCarrier[], ev: DeviceStatusEvent): MonitorCarrier[] {
  if (ev.kind !== 'sensor') return carriers;
  return mapSensor(carriers, ev.id, (s) => (s.status === ev.status ? s : { ...s, status: ev.status }));
}

/** An exception opened or closed: kept as the sensor's list of ongoing categories. */
export function applyException(carriers: MonitorCarrier[], ev: ExceptionEvent): MonitorCarrier[] {
  if (ev.sensorId === null || ev.sensorId === undefined) return carriers;
  return mapSensor(carriers, ev.sensorId, (s) => {
    const cur = s.ongoing ?? [];
    const has = cur.includes(ev.category);
    if (ev.ongoing && !has) return { ...s, ongoing: [...cur, ev.category] };
    if (!ev.ongoing && has) return { ...s, ongoing: cur.filter((c) => c !== ev.category) };
    return s;
  });
}

export type LiveEvent =
  | { type: 'reading'; data: ReadingEvent }
  | { type: 'exception'; data: ExceptionEvent }
  | { type: 'deviceStatus'; data: DeviceStatusEvent };

/** Reducer for the board: one stream event at a time. */
export function applyEvent(carriers: MonitorCarrier[], ev: LiveEvent): MonitorCarrier[] {
  switch (ev.type) {
    case 'reading':
      return applyReading(carriers, ev.data);
    case 'exception':
      return applyException(carriers, ev.data);
    case 'deviceStatus':
      return applyDeviceStatus(carriers, ev.data);
    default:
      return carriers;
  }
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
      const withOngoing = old?.ongoing && !s.ongoing ? { ...s, ongoing: old.ongoing } : s;
      if (old && old.lastTs !== null && (s.lastTs === null || old.lastTs > s.lastTs)) {
        return { ...withOngoing, lastTs: old.lastTs, lastTemp: old.lastTemp, lastHum: old.lastHum, lastVolt: old.lastVolt, lastRssi: old.lastRssi };
      }
      return withOngoing;
    }),
  }));
}

/** A sensor greys out when it is offline or stopped. */
export const isOffline = (s: MonitorSensor) => s.status !== DEVICE_STATUS.running;

/** Carrier-level state for the card border: the worst of its sensors. */
export function carrierState(c: MonitorCarrier): 'alarm' | 'offline' | 'ok' | 'empty' {
  if (c.sensors.length === 0) return 'empty';
  let anyOnline = false;
  for (const s of c.sensors) {
    if (isOffline(s)) continue;
    anyOnline = true;
    if (rangeState(s.lastTemp, c.tempMin, c.tempMax) !== 'ok' && s.lastTemp !== null) return 'alarm';
    if (s.lastHum !== null && rangeState(s.lastHum, c.humMin, c.humMax) !== 'ok') return 'alarm';
    if (s.ongoing && s.ongoing.length) return 'alarm';
  }
  if (anyOnline && (num(c.openExceptions) ?? 0) > 0) return 'alarm';
  return anyOnline ? 'ok' : 'offline';
}

/**
 * Format a UTC ms time in a fixed offset ("+08:00", "-05:30"); without an offset, in the
 * browser's zone.
 */
export function formatInZone(ts: number | null | undefined, offset?: string | null, fmt = 'YYYY-MM-DD HH:mm:ss'): string {
  if (ts === null || ts === undefined) return '';
  const minutes = offsetMinutes(offset);
  if (minutes === null) return dayjs(ts).format(fmt);
  return dayjs(ts).utcOffset(minutes).format(fmt);
}

/** "+08:00" → 480, "-05:30" → -330; null when absent or malformed. */
export function offsetMinutes(offset?: string | null): number | null {
  const m = offset ? /^([+-])(\d{2}):?(\d{2})$/.exec(offset) : null;
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * Date pickers work in the browser's zone. To let the user pick in the customer's zone, a
 * picker shows a "wall clock" dayjs whose local fields equal the time in that zone:
 * toWall(ts) for the picker's value, fromWall(picked) for the instant it means.
 */
export function toWall(ts: number, offset?: string | null): dayjs.Dayjs {
  const minutes = offsetMinutes(offset);
  if (minutes === null) return dayjs(ts);
  return dayjs(dayjs(ts).utcOffset(minutes).format('YYYY-MM-DDTHH:mm:ss.SSS'));
}

export function fromWall(d: dayjs.Dayjs, offset?: string | null): number {
  const minutes = offsetMinutes(offset);
  if (minutes === null) return d.valueOf();
  return Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second(), d.millisecond()) - minutes * 60_000;
}

/** Value text with one decimal, '--' when missing. */
export const fmtValue = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '--' : v.toFixed(digits));

/** Zone text like "2.0 ~ 8.0", with open ends shown as "--". */
export const fmtZone = (min: number | null, max: number | null) => (min === null && max === null ? '' : `${fmtValue(min)} ~ ${fmtValue(max)}`);
