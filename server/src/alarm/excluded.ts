import type { Queryable } from '../platform/db/client.js';
import { iso, ms } from './exceptions.js';

/**
 * When a carrier's readings are invalid under its invalid rules (issue 27, docs/alarms.md
 * "Invalid rules"): excluded from alarms, statistics and reports, and shaded in history.
 *
 * What a rule excluded at a moment is decided by its version in force at that moment
 * (invalid_rule_version, migration 0037): a rule created or changed today excludes nothing
 * before today, so back-filled readings of the past are judged as they would have been, and
 * the answer for a past range never changes (the alarm's "function of the set of readings"
 * relies on it).
 */

/** Epoch ms, half-open [start, end). */
export interface ExcludedSpan {
  start: number;
  end: number;
  ruleId: number;
}

/** One version of a rule as stored (times as epoch ms). */
export interface RuleVersion {
  ruleId: number;
  kind: 'schedule' | 'period' | 'defrost';
  /** ISO weekdays, 1 Monday … 7 Sunday. */
  weekdays: number[];
  /** Daily windows [fromMinute, toMinute) in the version's zone; to ≤ from runs past midnight. */
  windows: [number, number][];
  start: number | null;
  end: number | null;
  /** '+08:00' */
  tz: string;
  validFrom: number;
  validTo: number | null;
}

const DAY = 86_400_000;

/** '+08:00' → +480 minutes (the zones of spec §9 are fixed offsets). */
export function offsetMinutes(tz: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(tz);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * The periods one version excludes within [lo, hi), before clipping to its validity.
 * `defrost` is the carrier's defrost periods (end null: still in defrost).
 */
function definitionSpans(v: RuleVersion, lo: number, hi: number, defrost: { start: number; end: number | null }[]): [number, number][] {
  if (v.kind === 'period') return v.start !== null && v.end !== null ? [[v.start, v.end]] : [];
  if (v.kind === 'defrost') return defrost.map((d) => [d.start, d.end ?? hi]);
  const off = offsetMinutes(v.tz) * 60_000;
  const days = new Set(v.weekdays);
  const out: [number, number][] = [];
  // From the local day before lo: a window crossing midnight starts on the day before.
  for (let day = Math.floor((lo + off) / DAY) * DAY - DAY; day < hi + off; day += DAY) {
    const weekday = new Date(day).getUTCDay() || 7;
    if (!days.has(weekday)) continue;
    for (const [from, to] of v.windows) {
      const start = day - off + from * 60_000;
      const end = day - off + (to > from ? to : to + 1440) * 60_000;
      out.push([start, end]);
    }
  }
  return out;
}

/**
 * The excluded spans of one carrier's versions within [lo, hi): each version's definition
 * clipped to its validity and to the range, sorted and merged (an overlap or a touch makes one
 * span, named after the rule of its earliest part). Pure, for tests and for callers holding rows.
 */
export function spansOf(versions: RuleVersion[], lo: number, hi: number, defrost: { start: number; end: number | null }[] = []): ExcludedSpan[] {
  const raw: ExcludedSpan[] = [];
  for (const v of versions) {
    const from = Math.max(lo, v.validFrom);
    const to = Math.min(hi, v.validTo ?? hi);
    if (from >= to) continue;
    for (const [s, e] of definitionSpans(v, from, to, defrost)) {
      const start = Math.max(s, from);
      const end = Math.min(e, to);
      if (start < end) raw.push({ start, end, ruleId: v.ruleId });
    }
  }
  raw.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: ExcludedSpan[] = [];
  for (const s of raw) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Whether `ts` lies in one of `spans` (sorted, merged): a binary search, for long series. */
export function isExcluded(spans: readonly ExcludedSpan[], ts: number): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts < spans[mid].start) hi = mid - 1;
    else if (ts >= spans[mid].end) lo = mid + 1;
    else return true;
  }
  return false;
}

interface VersionRow {
  carrier_id: number;
  rule_id: number;
  kind: RuleVersion['kind'];
  weekdays: number[];
  windows: [number, number][] | string;
  start_ts: Date | null;
  end_ts: Date | null;
  tz: string;
  valid_from: Date;
  valid_to: Date | null;
}

/**
 * The periods during which each carrier's readings are invalid within [startMs, endMs), per
 * carrier: sorted, merged, clipped to the range; carriers without any rule there are absent.
 * Two statements at most (the versions, then the defrost periods if a version needs them).
 */
export async function excludedSpans(q: Queryable, carrierIds: readonly number[], startMs: number, endMs: number): Promise<Map<number, ExcludedSpan[]>> {
  const out = new Map<number, ExcludedSpan[]>();
  if (carrierIds.length === 0 || startMs >= endMs) return out;
  const ids = [...new Set(carrierIds)];
  const rows = await q.query<VersionRow>(
    `SELECT c.carrier_id, v.rule_id, v.kind, v.weekdays, v.windows, v.start_ts, v.end_ts, v.tz, v.valid_from, v.valid_to
       FROM invalid_rule_version v CROSS JOIN LATERAL unnest(v.carrier_ids) AS c(carrier_id)
      WHERE v.carrier_ids && $1::int[] AND c.carrier_id = ANY($1::int[])
        AND v.valid_from < $3 AND (v.valid_to IS NULL OR v.valid_to > $2)`,
    [ids, iso(startMs), iso(endMs)],
  );
  if (rows.length === 0) return out;
  const defrost = new Map<number, { start: number; end: number | null }[]>();
  const needDefrost = [...new Set(rows.filter((r) => r.kind === 'defrost').map((r) => r.carrier_id))];
  if (needDefrost.length) {
    const periods = await q.query<{ carrier_id: number; start_ts: Date; end_ts: Date | null }>(
      `SELECT carrier_id, start_ts, end_ts FROM carrier_defrost
        WHERE carrier_id = ANY($1::int[]) AND start_ts < $3 AND (end_ts IS NULL OR end_ts > $2) ORDER BY start_ts`,
      [needDefrost, iso(startMs), iso(endMs)],
    );
    for (const p of periods) {
      const list = defrost.get(p.carrier_id) ?? [];
      list.push({ start: ms(p.start_ts), end: p.end_ts ? ms(p.end_ts) : null });
      defrost.set(p.carrier_id, list);
    }
  }
  const byCarrier = new Map<number, RuleVersion[]>();
  for (const r of rows) {
    const list = byCarrier.get(r.carrier_id) ?? [];
    list.push({
      ruleId: r.rule_id,
      kind: r.kind,
      weekdays: r.weekdays.map(Number),
      windows: typeof r.windows === 'string' ? JSON.parse(r.windows) : r.windows,
      start: r.start_ts ? ms(r.start_ts) : null,
      end: r.end_ts ? ms(r.end_ts) : null,
      tz: r.tz,
      validFrom: ms(r.valid_from),
      validTo: r.valid_to ? ms(r.valid_to) : null,
    });
    byCarrier.set(r.carrier_id, list);
  }
  for (const [carrierId, versions] of byCarrier) {
    const spans = spansOf(versions, startMs, endMs, defrost.get(carrierId) ?? []);
    if (spans.length) out.set(carrierId, spans);
  }
  return out;
}

/**
 * SQL: the carrier `carrierExpr` is bound by an invalid rule, now or ever (a GIN probe of
 * invalid_rule_version). The alarm's fast paths (quiet.ts, ingest/statements.ts calm windows)
 * reason on the raw readings next to a window, which an exclusion may hide from the evaluation:
 * such a carrier's windows always get the full evaluation, and a carrier without rules pays
 * nothing else.
 */
export const boundByRules = (carrierExpr: string) => `EXISTS (SELECT 1 FROM invalid_rule_version x WHERE x.carrier_ids @> ARRAY[${carrierExpr}]::int[])`;

/**
 * One carrier's excluded spans as an evaluation meets them: loaded for the times it reads (a
 * day beyond each side, so that the look-around costs one statement in general), then reused.
 */
export class Exclusion {
  private spans: ExcludedSpan[] = [];
  private lo: number | null = null;
  private hi: number | null = null;

  constructor(
    private readonly q: Queryable,
    private readonly carrierId: number,
  ) {}

  /** The points that are not excluded. */
  async keep<P extends { ts: number }>(points: P[]): Promise<P[]> {
    if (!points.length) return points;
    let lo = points[0].ts;
    let hi = lo;
    for (const p of points) {
      if (p.ts < lo) lo = p.ts;
      if (p.ts > hi) hi = p.ts;
    }
    await this.cover(lo, hi + 1);
    return points.filter((p) => !isExcluded(this.spans, p.ts));
  }

  private async cover(lo: number, hi: number) {
    if (this.lo !== null && this.hi !== null && lo >= this.lo && hi <= this.hi) return;
    const from = Math.min(lo, this.lo ?? lo) - DAY;
    const to = Math.max(hi, this.hi ?? hi) + DAY;
    this.spans = (await excludedSpans(this.q, [this.carrierId], from, to)).get(this.carrierId) ?? [];
    this.lo = from;
    this.hi = to;
  }
}
