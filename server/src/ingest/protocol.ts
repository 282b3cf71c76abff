import { EARLIEST_READING_MS, isPrintable, outOfRange, READING_VALUES, TWO_DECIMALS, validDeviceNo } from '@coldwatch/contract';
/**
 * Payloads of ../../../../shared/spec/device-protocol.md, parsed by hand: this runs for every
 * message at full ingest rate, and a failure must name its reason for the reject log.
 * MQTT and HTTP share these, so both reject the same things for the same reasons.
 */

export type MessageKind = 'data' | 'heartbeat' | 'event' | 'ack';
export const MESSAGE_KINDS: readonly MessageKind[] = ['data', 'heartbeat', 'event', 'ack'];

export const VALUE_FIELDS = ['temp', 'hum', 'volt', 'rssi', 'lqi', 'gas', 'door'] as const;
export type ValueField = (typeof VALUE_FIELDS)[number];

export interface DeviceReading {
  dev: string;
  /** Sampling time, UTC ms. */
  ts: number;
  temp: number | null;
  hum: number | null;
  volt: number | null;
  rssi: number | null;
  lqi: number | null;
  gas: number | null;
  door: number | null;
}

export interface Heartbeat {
  ts: number | null;
  power: string | null;
  tcp: boolean | null;
  lte: boolean | null;
  flight: boolean | null;
  ip: string | null;
  wanIp: string | null;
  lat: number | null;
  lng: number | null;
  tz: string | null;
}

export const EVENT_TYPES = ['power_fail', 'power_restore', 'door_open', 'door_close', 'low_battery'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
const DEVICE_EVENTS = new Set<string>(['door_open', 'door_close', 'low_battery']);

export interface DeviceEvent {
  ts: number;
  type: EventType;
  dev: string | null;
}

export interface CommandAck {
  cmdId: string;
  result: 'ok' | 'fail';
  detail: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

class Malformed extends Error {}
const fail = (reason: string): never => {
  throw new Malformed(reason);
};

function parseJson(payload: Buffer | string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return fail('bad JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail('payload is not a JSON object');
  return v as Record<string, unknown>;
}

function wrap<T>(fn: () => T): Parsed<T> {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, reason: err.message };
    throw err;
  }
}

const num = (v: unknown, where: string): number | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${where} is not a finite number`);
  return v as number;
};

const str = (v: unknown, where: string, max: number): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max) fail(`${where} is not a string of at most ${max} characters`);
  if (!isPrintable(v as string)) fail(`${where} contains control characters or broken UTF-16`);
  return v as string;
};

const bool = (v: unknown, where: string): boolean | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') fail(`${where} is not a boolean`);
  return v as boolean;
};

/** A device time: whole UTC milliseconds, required. */
const time = (v: unknown, where: string): number => {
  if (v === undefined || v === null) fail(`${where} is missing`);
  const n = num(v, where)!;
  if (n <= 0) fail(`${where} is not a time in ms since the epoch`);
  return Math.round(n);
};

const devNo = (v: unknown, where: string): string => {
  if (v === undefined || v === null || v === '') fail(`${where} is missing`);
  return str(v, where, 30)!;
};

/** A reading refused on its own (its message is still acknowledged): the reason goes to the reject log. */
export interface RefusedReading {
  dev: string | null;
  reason: 'bad_device_number' | 'bad_time' | 'empty_reading' | 'out_of_range';
  detail: string;
}

/**
 * A data message: its well-formed readings, and the readings refused one by one because a
 * value is outside the contract's range (READING_LIMITS), the device number is not printable
 * text of at most 30 characters, the time is before 2000, or it carries no value at all
 * (nothing was measured; such rows would only fill the table). A message that is not valid
 * JSON, has no readings array, or a reading without dev/ts or with a value that is not a
 * finite number is malformed as a whole (docs/device-protocol.md).
 */
const readingDev = (v: unknown, where: string): string => {
  if (v === undefined || v === null || v === '') fail(`${where} is missing`);
  if (typeof v !== 'string') fail(`${where} is not a string`);
  return v as string;
};

export function parseData(payload: Buffer | string): Parsed<{ readings: DeviceReading[]; refused: RefusedReading[] }> {
  return wrap(() => {
    const body = parseJson(payload);
    const list = body.readings;
    if (!Array.isArray(list)) fail('readings is not an array');
    const refused: RefusedReading[] = [];
    // This runs for every reading at full ingest rate: the messages naming a field are built only on failure.
    const value = (o: Record<string, unknown>, k: ValueField, i: number): number | null => {
      const v = o[k];
      if (v === undefined || v === null) return null;
      if (typeof v !== 'number' || !Number.isFinite(v)) fail(`readings[${i}].${k} is not a finite number`);
      return v as number;
    };
    const parsed = (list as unknown[]).map((r, i) => {
      if (r === null || typeof r !== 'object' || Array.isArray(r)) fail(`readings[${i}] is not an object`);
      const o = r as Record<string, unknown>;
      const dev = o.dev;
      const reading: DeviceReading = {
        // Checked per reading below (validDeviceNo): a bad number refuses that reading, not the message.
        dev: typeof dev === 'string' && dev !== '' ? dev : readingDev(dev, `readings[${i}].dev`),
        ts: typeof o.ts === 'number' && Number.isFinite(o.ts) && o.ts > 0 ? Math.round(o.ts) : time(o.ts, `readings[${i}].ts`),
        temp: value(o, 'temp', i),
        hum: value(o, 'hum', i),
        volt: value(o, 'volt', i),
        rssi: value(o, 'rssi', i),
        lqi: value(o, 'lqi', i),
        gas: value(o, 'gas', i),
        door: value(o, 'door', i),
      };
      if (reading.door !== null && reading.door !== 0 && reading.door !== 1) fail(`readings[${i}].door is not 0 or 1`);
      return reading;
    });
    const readings: DeviceReading[] = [];
    for (const r of parsed) {
      if (!validDeviceNo(r.dev)) refused.push({ dev: null, reason: 'bad_device_number', detail: `dev=${JSON.stringify(r.dev).slice(0, 60)}` });
      else if (r.ts < EARLIEST_READING_MS) refused.push({ dev: r.dev, reason: 'bad_time', detail: `ts=${r.ts}` });
      else if (VALUE_FIELDS.every((k) => r[k] === null)) refused.push({ dev: r.dev, reason: 'empty_reading', detail: `ts=${r.ts}` });
      else {
        const bad = outOfRange(r);
        if (bad) refused.push({ dev: r.dev, reason: 'out_of_range', detail: bad });
        else {
          // Two decimals for temperature and humidity (spec §5), six for the rest: a device's float
          // noise (4.4599998) is rounded away; values too small for a `real` were refused above.
          for (const k of READING_VALUES) if (r[k] !== null) r[k] = TWO_DECIMALS.includes(k) ? Math.round(r[k]! * 100) / 100 : Math.round(r[k]! * 1e6) / 1e6;
          readings.push(r);
        }
      }
    }
    return { readings, refused };
  });
}

const TZ = /^[+-](0\d|1[0-4]):[0-5]\d$/;

export function parseHeartbeat(payload: Buffer | string): Parsed<Heartbeat> {
  return wrap(() => {
    const o = parseJson(payload);
    const ts = o.ts === undefined || o.ts === null ? null : time(o.ts, 'ts');
    let lat: number | null = null;
    let lng: number | null = null;
    if (o.gps !== undefined && o.gps !== null) {
      if (typeof o.gps !== 'object') fail('gps is not an object');
      const g = o.gps as Record<string, unknown>;
      lat = num(g.lat, 'gps.lat');
      lng = num(g.lng, 'gps.lng');
      if (lat !== null && Math.abs(lat) > 90) fail('gps.lat is out of range');
      if (lng !== null && Math.abs(lng) > 180) fail('gps.lng is out of range');
    }
    const tz = str(o.tz, 'tz', 6);
    if (tz !== null && !TZ.test(tz)) fail('tz is not of the form +08:00');
    return {
      ts,
      power: str(o.power, 'power', 10),
      tcp: bool(o.tcp, 'tcp'),
      lte: bool(o.lte, 'lte'),
      flight: bool(o.flight, 'flight'),
      ip: str(o.ip, 'ip', 45),
      wanIp: str(o.wanIp, 'wanIp', 45),
      lat,
      lng,
      tz,
    };
  });
}

export function parseEvent(payload: Buffer | string): Parsed<DeviceEvent> {
  return wrap(() => {
    const o = parseJson(payload);
    const ts = time(o.ts, 'ts');
    if (typeof o.type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(o.type)) fail(`type is not one of ${EVENT_TYPES.join(', ')}`);
    const type = o.type as EventType;
    const dev = DEVICE_EVENTS.has(type) ? devNo(o.dev, 'dev') : str(o.dev, 'dev', 30);
    return { ts, type, dev };
  });
}

export function parseAck(payload: Buffer | string): Parsed<CommandAck> {
  return wrap(() => {
    const o = parseJson(payload);
    const cmdId = str(o.cmdId, 'cmdId', 40);
    if (!cmdId) fail('cmdId is missing');
    if (o.result !== 'ok' && o.result !== 'fail') fail('result is not ok or fail');
    const detail = typeof o.detail === 'string' ? o.detail.slice(0, 250) : '';
    return { cmdId: cmdId!, result: o.result as 'ok' | 'fail', detail };
  });
}

/** `cc/{sn}/up/{kind}` → its parts, or null for any other topic. */
export function parseUpTopic(topic: string): { sn: string; kind: MessageKind } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'cc' || parts[2] !== 'up' || !parts[1]) return null;
  const kind = parts[3] as MessageKind;
  return MESSAGE_KINDS.includes(kind) ? { sn: parts[1], kind } : null;
}
