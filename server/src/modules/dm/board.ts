import { sql, type Kysely } from 'kysely';
import { boardState, climateOf, rangeState, sensorOnline, type BoardCarrierLike, type BoardSensorLike, type BoardState, type Climate, type MonitorCounts, type MonitorFilter, type MonitorSummary, type SampleMode } from '@coldwatch/contract';
import type { DB } from '../../platform/db/schema.gen.js';
import { contains, msOrNull } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { carrierFilter, carrierSelect } from '../carrier/carrier.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';

/*
 * The device monitor over every carrier of its filters, on the server (docs/scaling.md
 * "The board at 100,000 points"): the browser asks for one page and the counts, never the whole
 * list. A carrier's state is the contract's boardState, so it cannot be a SQL column: the
 * scan reads the few columns boardState needs for every filtered carrier and its sensors
 * (150,000 short rows at 100,000 sensors, not the 62 MB of the whole list) and judges them here.
 * A page of the unfiltered board (state 'all') needs no scan: it is found by SQL alone.
 */

export interface BoardFilters {
  customerId?: number;
  sceneId?: number;
  type?: number;
  search?: string;
  state: MonitorFilter;
}

/** The carriers of the filters but the state, as a WHERE condition of carrierSelect: the search matches a name or a sensor number. */
export async function boardWhere(k: Kysely<DB>, scope: Scope, f: Omit<BoardFilters, 'state'>) {
  const base = await carrierFilter(k, scope, { customerId: f.customerId, sceneId: f.sceneId, type: f.type });
  const pattern = f.search ? contains(f.search) : undefined;
  return (eb: Parameters<typeof base>[0]) =>
    pattern
      ? eb.and([
          base(eb),
          eb.or([eb('c.name', 'ilike', pattern), eb.exists(eb.selectFrom('sensor as q').select('q.id').whereRef('q.carrier_id', '=', 'c.id').where('q.dev_no', 'ilike', pattern))]),
        ])
      : base(eb);
}

/** Whether a carrier passes the state filter: 'offline' also takes a carrier with any one sensor offline (as the board always did). */
export function passes(filter: MonitorFilter, state: BoardState, sensors: readonly BoardSensorLike[]): boolean {
  if (filter === 'all') return true;
  if (filter === 'offline') return state === 'offline' || sensors.some((s) => !sensorOnline(s));
  return state === filter;
}

/** A carrier as the scan reads it: what boardState needs but its sensors and open exceptions. */
type ScanCarrier = Omit<BoardCarrierLike, 'openExceptions' | 'sensors'> & { id: number };

export interface BoardScan {
  /** The carriers passing every filter, state included, in board order (id). */
  ids: number[];
  counts: MonitorCounts;
  /** Over the carriers of the filters but the state; its reachNobody is the caller's to fill (it needs the recipients), its alarms are counted in SQL (alarmModes.ts). */
  summary: Omit<MonitorSummary, 'alarms'>;
  /** The carriers whose alarm is on (for reachNobody). */
  alarmOn: number[];
  /** Each carrier's state, the state filter aside. */
  states: Map<number, BoardState>;
  /** Sensors not reporting on the carriers of the filters but the state: how many, and the first OFFLINE_FIRST in board order. */
  offline: { total: number; first: { sensorId: number; carrierId: number }[] };
  /** A carrier's value by its sample mode and its time, from the scan's rows (the table's sort by live values); made when asked. */
  climate: (id: number) => Climate | undefined;
}

const OFFLINE_FIRST = 10;

/**
 * Every carrier of the filters with what its state needs: three statements (carriers, their
 * sensors' latest values, their open data exceptions), whatever the number of carriers.
 */
export async function scanBoard(k: Kysely<DB>, scope: Scope, f: BoardFilters): Promise<BoardScan> {
  const where = await boardWhere(k, scope, f);
  const carriers: ScanCarrier[] = await carrierSelect(k)
    .clearSelect()
    .select(['c.id', 'c.status', 'c.alarm_on as alarmOn', sql<SampleMode>`c.sample_mode`.as('sampleMode'), 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where(where)
    .orderBy('c.id')
    .execute();
  const ids = carriers.map((c) => c.id);
  type ScanSensor = BoardSensorLike & { id: number; carrierId: number };
  const sensors = new Map<number, ScanSensor[]>();
  const open = new Map<number, number>();
  if (ids.length) {
    // Rounded as the live list rounds them (sensorLiveSelect), so a state here is the state on the card.
    const rows = await k
      .selectFrom('sensor as x')
      .select(['x.id', 'x.carrier_id as carrierId', 'x.status', msOrNull('x.last_ts').as('lastTs'), sql<number | null>`round(x.last_temp::numeric, 2)::float8`.as('temp'), sql<number | null>`round(x.last_hum::numeric, 2)::float8`.as('hum')])
      .where(sql<boolean>`x.carrier_id = any(${ids}::int[])`)
      .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
      .execute();
    for (const s of rows) {
      const list = sensors.get(s.carrierId!);
      if (list) list.push(s as ScanSensor);
      else sensors.set(s.carrierId!, [s as ScanSensor]);
    }
    const counted = await k
      .selectFrom('exception_record as e')
      .select(['e.carrier_id as carrierId', sql<number>`count(*)::int`.as('n')])
      .where('e.ongoing', '=', true)
      .where('e.type', '=', 'data')
      .where(sql<boolean>`e.carrier_id = any(${ids}::int[])`)
      .groupBy('e.carrier_id')
      .execute();
    for (const r of counted) open.set(r.carrierId!, r.n);
  }

  const counts: MonitorCounts = { carriers: 0, sensors: 0, online: 0, offline: 0, alarm: 0, filters: { all: 0, abnormal: 0, offline: 0, normal: 0 } };
  const out: number[] = [];
  const summary: BoardScan['summary'] = { total: carriers.length, byState: { normal: 0, abnormal: 0, offline: 0, stopped: 0 }, byStatus: {}, boundSensors: 0, alarmOff: 0, reachNobody: 0, reachNobodyNames: [] };
  const alarmOn: number[] = [];
  const states = new Map<number, BoardState>();
  const offline: BoardScan['offline'] = { total: 0, first: [] };
  const byId = new Map<number, ScanCarrier>();
  const outOfZone = (v: number | null, min: number | null, max: number | null) => {
    const st = rangeState(v, min, max);
    return st === 'high' || st === 'low';
  };
  for (const c of carriers) {
    const list = sensors.get(c.id) ?? [];
    const state = boardState({ ...c, openExceptions: open.get(c.id) ?? 0, sensors: list });
    for (const filter of ['all', 'abnormal', 'offline', 'normal'] as const) if (passes(filter, state, list)) counts.filters[filter] += 1;
    summary.byState[state] += 1;
    states.set(c.id, state);
    byId.set(c.id, c);
    // In board order: by carrier, then by sensor (the list above is in no order); nothing allocated for a carrier all online.
    if (list.some((x) => !sensorOnline(x)))
      for (const s of list.filter((x) => !sensorOnline(x)).sort((a, b) => a.id - b.id)) {
        offline.total += 1;
        if (offline.first.length < OFFLINE_FIRST) offline.first.push({ sensorId: s.id, carrierId: c.id });
      }
    summary.byStatus[c.status] = (summary.byStatus[c.status] ?? 0) + 1;
    summary.boundSensors += list.length;
    if (c.alarmOn) alarmOn.push(c.id);
    else summary.alarmOff += 1;
    if (!passes(f.state, state, list)) continue;
    out.push(c.id);
    counts.carriers += 1;
    for (const s of list) {
      counts.sensors += 1;
      if (!sensorOnline(s)) continue;
      counts.online += 1;
      if (outOfZone(s.temp, c.tempMin, c.tempMax) || outOfZone(s.hum, c.humMin, c.humMax)) counts.alarm += 1;
    }
  }
  counts.offline = counts.sensors - counts.online;
  const climate = (id: number) => {
    const c = byId.get(id);
    return c && climateOf({ ...c, sensors: sensors.get(id) ?? [] });
  };
  return { ids: out, counts, summary, alarmOn, states, offline, climate };
}

/**
 * The same scan asked for twice at once by one user (two browsers on the same board, a page and its counts)
 * runs once: the second caller shares the first one's answer. Nothing is kept after it settles,
 * so no answer is ever older than its request.
 */
export function sharedScans() {
  const running = new Map<string, Promise<BoardScan>>();
  return (k: Kysely<DB>, scope: Scope, f: BoardFilters): Promise<BoardScan> => {
    // One user's scans (two of its browsers, a page and its counts): the same scope by construction.
    const key = JSON.stringify([scope.userId, scope.customerId, f]);
    let p = running.get(key);
    if (!p) {
      p = scanBoard(k, scope, f).finally(() => running.delete(key));
      running.set(key, p);
    }
    return p;
  };
}
