/**
 * How a carrier stands on every monitoring view: the one source of truth shared by the server
 * (monitor list, carrier detail) and the web (board, table, map, overview, home), so that no
 * two screens count a carrier differently.
 */
import { CARRIER_STATUS, DEVICE_STATUS, isDataCategory } from './enums.js';
import { carrierValue, type SampleMode } from './sample.js';

/** Where a value stands against its zone (spec §9: above max orange, below min blue). */
export type RangeState = 'high' | 'low' | 'ok' | 'none';

export function rangeState(value: number | null | undefined, min: number | null | undefined, max: number | null | undefined): RangeState {
  if (value === null || value === undefined || Number.isNaN(value)) return 'none';
  if (max !== null && max !== undefined && value > max) return 'high';
  if (min !== null && min !== undefined && value < min) return 'low';
  return 'ok';
}

/** Spec §9 temperature colours, used for humidity too. */
export const RANGE_COLORS: Record<RangeState, string> = {
  high: '#fa8c16', // orange
  low: '#1677ff', // blue
  ok: '#389e0d', // green
  none: '#8c8c8c',
};

export interface BoardSensorLike {
  status: number;
  lastTs: number | null;
  temp: number | null;
  hum: number | null;
  /** Categories of its ongoing exceptions, when the live stream or the list told them (only the data ones make its carrier abnormal). */
  ongoing?: string[];
}

export interface BoardCarrierLike {
  status: number;
  alarmOn: boolean;
  sampleMode: SampleMode;
  tempMin: number | null;
  tempMax: number | null;
  humMin: number | null;
  humMax: number | null;
  openExceptions: number;
  sensors: readonly BoardSensorLike[];
}

/** A sensor counts for its carrier only while it runs (an offline or stopped sensor's last value is stale). */
export const sensorOnline = (s: Pick<BoardSensorLike, 'status'>) => s.status === DEVICE_STATUS.running;

export interface Climate {
  temp: number | null;
  hum: number | null;
  tempState: RangeState;
  humState: RangeState;
  /** Time of the newest value that went into it. */
  ts: number | null;
}

/** The carrier's one temperature and humidity by its sample mode (spec §3), from its online sensors. */
export function climateOf(c: Omit<BoardCarrierLike, 'status' | 'alarmOn' | 'openExceptions'>): Climate {
  const live = c.sensors.filter(sensorOnline);
  const of = (field: 'temp' | 'hum') =>
    carrierValue(
      c.sampleMode,
      live.map((s) => (s[field] === null || s.lastTs === null ? null : { value: s[field]!, ts: s.lastTs })),
    );
  const temp = of('temp');
  const hum = of('hum');
  const ts = live.reduce<number | null>((m, s) => (s.lastTs !== null && (m === null || s.lastTs > m) ? s.lastTs : m), null);
  return { temp, hum, tempState: rangeState(temp, c.tempMin, c.tempMax), humState: rangeState(hum, c.humMin, c.humMax), ts };
}

/**
 * Carrier state of spec §4 (normal, abnormal, stopped) with offline beside them: stopped when
 * it is not running or its alarm is off; offline when none of its sensors reports; abnormal
 * when its value is out of zone or an exception is open; normal otherwise.
 */
export const BOARD_STATES = ['normal', 'abnormal', 'offline', 'stopped'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

export function boardState(c: BoardCarrierLike): BoardState {
  if (c.status !== CARRIER_STATUS.running || !c.alarmOn) return 'stopped';
  if (!c.sensors.some(sensorOnline)) return 'offline';
  const cl = climateOf(c);
  const out = (s: RangeState) => s === 'high' || s === 'low';
  // Only temperature and humidity make a carrier abnormal: a sensor offline, a gateway's power
  // failure or a low battery are the device's own state (docs/alarms.md "Connection, power and battery").
  if (out(cl.tempState) || out(cl.humState) || c.openExceptions > 0 || c.sensors.some((s) => sensorOnline(s) && s.ongoing?.some(isDataCategory))) return 'abnormal';
  return 'normal';
}

/** Colour of each state wherever a carrier is drawn (card border, map marker, table tag). */
export const BOARD_STATE_COLORS: Record<BoardState, string> = {
  normal: '#52c41a',
  abnormal: '#fa541c',
  offline: '#bfbfbf',
  stopped: '#8c8c8c',
};

/** Equipment use of spec §3, computed: bound to a carrier (in use, bound), reporting without one (in use, unbound), never reported (unused). */
export const DEVICE_USAGES = ['bound', 'unbound', 'unused'] as const;
export type DeviceUsage = (typeof DEVICE_USAGES)[number];
export const deviceUsage = (s: { carrierId: number | null; lastTs: number | null }): DeviceUsage => (s.carrierId !== null ? 'bound' : s.lastTs !== null ? 'unbound' : 'unused');

/**
 * The device monitor's state filter: every carrier, the abnormal ones, those offline or with a
 * sensor offline, the normal ones (docs/scaling.md "The board at 100,000 points"). Here, not in
 * api/dm.ts, so that the board names it without loading the schemas (zod).
 */
export const MONITOR_FILTERS = ['all', 'abnormal', 'offline', 'normal'] as const;
export type MonitorFilter = (typeof MONITOR_FILTERS)[number];

/**
 * The monitoring-point table's filters and sorts (/databoard/monitoringPoint, docs/scaling.md "The
 * board at 100,000 points"): the state filter is the exact state (home's tiles lead to it), the
 * sorts are done on the server; `state` puts the carriers needing a look first (abnormal, offline,
 * normal, stopped), `temp`/`hum`/`ts` sort by the carrier's value by its sample mode and its time,
 * carriers without one last whatever the order. Without a sort: board order (id).
 */
export const TABLE_FILTERS = ['all', ...BOARD_STATES] as const;
export type TableFilter = (typeof TABLE_FILTERS)[number];
export const TABLE_SORTS = ['name', 'state', 'temp', 'hum', 'ts'] as const;
export type TableSort = (typeof TABLE_SORTS)[number];
/** The order of `state` as the table and home's widgets sort it: who needs a look first. */
export const ATTENTION_ORDER: Record<BoardState, number> = { abnormal: 0, offline: 1, normal: 2, stopped: 3 };

/** Carriers of one group (a type, a scene) counted by state. */
export type StateCounts = Record<BoardState, number> & { total: number };
export interface GroupCounts<K> extends StateCounts {
  key: K;
  label: string;
}

/** Counts per group by each item's state, in the order the groups first appear; the worst (most abnormal) groups first (the overview's tables). */
export function countByState<T, K>(items: readonly T[], keyOf: (t: T) => K, labelOf: (t: T) => string, stateOf: (t: T) => BoardState): GroupCounts<K>[] {
  const groups = new Map<K, GroupCounts<K>>();
  for (const c of items) {
    const k = keyOf(c);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { total: 0, normal: 0, abnormal: 0, offline: 0, stopped: 0, key: k, label: labelOf(c) }));
    g.total += 1;
    g[stateOf(c)] += 1;
  }
  return [...groups.values()].sort((a, b) => b.abnormal - a.abnormal || b.offline - a.offline || b.total - a.total);
}
