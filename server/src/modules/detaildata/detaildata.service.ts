import { rangeState, type DetailPage, type DetailRow, type DetailSubject } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { Scope } from '../../platform/auth/scope.js';
import { excludedSpans, type ExcludedSpan } from '../../alarm/excluded.js';
import { carrierValues } from '../history/carrierValues.js';
import { carrierSubjects, sensorSubjects, type CarrierSubject, type SensorSubject, type Zone } from './subjects.js';
import { countRows, pageKeys, readingsAt, type Feed, type Window } from './readings.js';

/*
 * Detail data (spec §2 /count/detailData; docs/statistics.md "Detail data"): every reading of
 * the subjects over the span, newest first, one page at a time.
 *
 * - Sensors: a row per reading, as stored.
 * - Carriers: a row whenever one of the carrier's running sensors reports, holding the carrier's
 *   value in its sample mode then (carrierValues, the board's and the alarms' rule). The page's
 *   times come from the index; the values are computed over the page's own time window only,
 *   with each sensor's reading before it as the starting state, so a deep page costs no more
 *   than the first.
 * - Every row is marked with the invalid rule of its carrier that excludes it, if any
 *   (alarm/excluded.ts): shown, but left out of alarms, statistics and reports.
 */

export interface DetailArgs extends Window {
  carrierIds?: number[];
  devNos?: string[];
  /** The span's row count when the caller already knows it (the export's later pages). */
  total?: number;
}

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
const stateOf = (v: number | null, min: number | null, max: number | null) => {
  const s = rangeState(v, min, max);
  return s === 'high' || s === 'low' ? s : null;
};
const ruleAt = (spans: readonly ExcludedSpan[] | undefined, ts: number) => spans?.find((s) => ts >= s.start && ts < s.end)?.ruleId ?? null;

/** One row of the table (and of its export): values rounded as shown, zone state, the rule that excludes it. */
export function row(ts: number, zone: Zone, carrierId: number | null, carrierName: string | null, deviceNo: string | null, v: { temp: number | null; hum: number | null } | undefined, spans: readonly ExcludedSpan[] | undefined): DetailRow {
  const temp = round2(v?.temp ?? null);
  const hum = round2(v?.hum ?? null);
  return {
    ts,
    carrierId,
    carrierName,
    deviceNo,
    temp,
    hum,
    excludedBy: ruleAt(spans, ts),
    tempState: stateOf(temp, zone.tempMin, zone.tempMax),
    humState: stateOf(hum, zone.humMin, zone.humMax),
  };
}

const zoneOf = (z: Zone): Zone => ({ tempMin: z.tempMin, tempMax: z.tempMax, humMin: z.humMin, humMax: z.humMax });

/** The page of carriers' values. */
async function carrierPage(q: Queryable, carriers: CarrierSubject[], w: DetailArgs, spans: Map<number, ExcludedSpan[]>) {
  const feeds: Feed[] = carriers.flatMap((c) => c.sensors.map((s) => ({ sensorId: s.id, customerId: c.customerId, key: c.id })));
  const total = w.total ?? (await countRows(q, feeds, w.start, w.end));
  const keys = await pageKeys(q, feeds, w, total);
  const byCarrier = new Map(carriers.map((c) => [c.id, c]));
  const values = new Map<string, { temp: number | null; hum: number | null }>();
  for (const c of carriers) {
    const times = keys.filter((k) => k.key === c.id).map((k) => k.ts);
    if (!times.length) continue;
    for (const p of await carrierValues(q, c, Math.min(...times), Math.max(...times))) values.set(`${c.id}:${p.ts}`, p);
  }
  const rows = keys.map((k) => {
    const c = byCarrier.get(k.key)!;
    return row(k.ts, c, c.id, c.name, null, values.get(`${c.id}:${k.ts}`), spans.get(c.id));
  });
  return { total, rows };
}

/** The page of sensors' readings. */
async function sensorPage(q: Queryable, sensors: SensorSubject[], w: DetailArgs, spans: Map<number, ExcludedSpan[]>) {
  const feeds: Feed[] = sensors.map((s) => ({ sensorId: s.id, customerId: s.customerId, key: s.id }));
  const total = w.total ?? (await countRows(q, feeds, w.start, w.end));
  const keys = await pageKeys(q, feeds, w, total);
  const values = await readingsAt(q, feeds, keys);
  const byId = new Map(sensors.map((s) => [s.id, s]));
  const rows = keys.map((k) => {
    const s = byId.get(k.key)!;
    return row(k.ts, s, s.carrierId, s.carrierName, s.devNo, values.get(`${k.key}:${k.ts}`), s.carrierId === null ? undefined : spans.get(s.carrierId));
  });
  return { total, rows };
}

export async function detailPage(q: Queryable, scope: Scope, a: DetailArgs): Promise<DetailPage> {
  // The spans are half-open: the end is inclusive for readings, so they run 1 ms past it.
  const span = (ids: number[]) => excludedSpans(q, ids, a.start, a.end + 1);
  const paging = { iDisplayStart: a.offset, iDisplayLength: a.length };
  if (a.carrierIds?.length) {
    const carriers = await carrierSubjects(q, scope, a.carrierIds);
    const spans = await span(carriers.map((c) => c.id));
    const { total, rows } = await carrierPage(q, carriers, a, spans);
    const subjects: DetailSubject[] = carriers.map((c) => ({ carrierId: c.id, name: c.name, deviceNo: null, mode: c.mode, devNos: c.sensors.map((s) => s.devNo), ...zoneOf(c), excluded: spans.get(c.id) ?? [] }));
    return { total, rows, subjects, ...paging };
  }
  const sensors = await sensorSubjects(q, scope, a.devNos ?? []);
  const spans = await span([...new Set(sensors.flatMap((s) => (s.carrierId === null ? [] : [s.carrierId])))]);
  const { total, rows } = await sensorPage(q, sensors, a, spans);
  const subjects: DetailSubject[] = sensors.map((s) => ({
    carrierId: s.carrierId,
    name: s.carrierName ?? s.devNo,
    deviceNo: s.devNo,
    mode: null,
    devNos: [s.devNo],
    ...zoneOf(s),
    excluded: s.carrierId === null ? [] : (spans.get(s.carrierId) ?? []),
  }));
  return { total, rows, subjects, ...paging };
}
