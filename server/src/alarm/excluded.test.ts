import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../test/db.js';
import type { Db } from '../platform/db/client.js';
import { excludedSpans, isExcluded, spansOf, type RuleVersion } from './excluded.js';
import { site, type Site } from './testkit.js';

/*
 * excludedSpans: the periods a carrier's readings are invalid under its invalid rules, as the
 * versions in force at each moment define them (migration 0037), on the real database.
 */

let db: Db;
let drop: () => Promise<void>;
let a: Site;
let b: Site;
let other: Site;

const T = (s: string) => Date.parse(s);
// 2026-06-01 is a Monday.
const MON = T('2026-06-01T00:00:00Z');
const H = 3_600_000;
const DAY = 24 * H;

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  const customer = (await db.one<{ id: number }>(`INSERT INTO customer (name, short_name, code, type) VALUES ('Excl', 'Excl', 'EXCL', 'customer') RETURNING id`))!.id;
  a = await site(db, customer, { name: 'Fridge A' });
  b = await site(db, customer, { name: 'Fridge B' });
  other = await site(db, customer, { name: 'Fridge without rules' });
}, 120_000);
afterAll(() => drop());

/** A rule with one version, as the rule module writes them (valid_from given: a test reaches into the past). */
async function rule(carriers: number[], v: Partial<RuleVersion> & Pick<RuleVersion, 'kind' | 'validFrom'>): Promise<number> {
  const [r] = await db.query<{ id: number }>(
    `INSERT INTO invalid_rule (customer_id, name, kind, weekdays, windows, start_ts, end_ts, carrier_ids)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [a.customerId, `rule ${Math.random()}`, v.kind, v.weekdays ?? [], JSON.stringify(v.windows ?? []), v.start ? new Date(v.start) : null, v.end ? new Date(v.end) : null, carriers],
  );
  await db.query(
    `INSERT INTO invalid_rule_version (customer_id, rule_id, kind, weekdays, windows, start_ts, end_ts, tz, carrier_ids, valid_from, valid_to)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [a.customerId, r.id, v.kind, v.weekdays ?? [], JSON.stringify(v.windows ?? []), v.start ? new Date(v.start) : null, v.end ? new Date(v.end) : null,
      v.tz ?? '+08:00', carriers, new Date(v.validFrom), v.validTo ? new Date(v.validTo) : null],
  );
  return r.id;
}

describe('spansOf (pure)', () => {
  const base: RuleVersion = { ruleId: 1, kind: 'schedule', weekdays: [1], windows: [[120, 150]], start: null, end: null, tz: '+08:00', validFrom: 0, validTo: null };

  it('places daily windows in the version\'s time zone, on its weekdays only', () => {
    // Monday 02:00–02:30 at +08:00 is Sunday 18:00–18:30 UTC.
    expect(spansOf([base], MON - DAY, MON + 6 * DAY)).toEqual([{ start: MON - 6 * H, end: MON - 5.5 * H, ruleId: 1 }]);
    expect(spansOf([{ ...base, tz: '-05:00' }], MON, MON + DAY)).toEqual([{ start: MON + 7 * H, end: MON + 7.5 * H, ruleId: 1 }]);
    // Tuesday only: nothing on the Monday.
    expect(spansOf([{ ...base, weekdays: [2], tz: '+00:00' }], MON, MON + DAY)).toEqual([]);
  });

  it('runs a window past midnight into the next day, from the weekday it starts on', () => {
    const v: RuleVersion = { ...base, tz: '+00:00', weekdays: [7], windows: [[23 * 60, 60]] };
    // Sunday 23:00 – Monday 01:00 UTC, seen from a range that starts on the Monday.
    expect(spansOf([v], MON, MON + DAY)).toEqual([{ start: MON, end: MON + H, ruleId: 1 }]);
  });

  it('clips to the version\'s validity and to the range, and merges overlaps and touches', () => {
    const p = (ruleId: number, s: number, e: number, from = 0, to: number | null = null): RuleVersion => ({ ...base, ruleId, kind: 'period', start: s, end: e, validFrom: from, validTo: to });
    expect(spansOf([p(1, MON, MON + 4 * H, MON + H)], 0, MON + 3 * H)).toEqual([{ start: MON + H, end: MON + 3 * H, ruleId: 1 }]);
    expect(spansOf([p(2, MON + 2 * H, MON + 5 * H), p(1, MON, MON + 2 * H)], 0, MON + DAY)).toEqual([{ start: MON, end: MON + 5 * H, ruleId: 1 }]);
    expect(spansOf([p(1, MON, MON + H), p(2, MON + 2 * H, MON + 3 * H)], 0, MON + DAY)).toHaveLength(2);
    // A version closed before the period: nothing.
    expect(spansOf([p(1, MON, MON + H, 0, MON - 1)], 0, MON + DAY)).toEqual([]);
  });

  it('finds a moment inside the half-open spans and not at their ends', () => {
    const spans = [{ start: 10, end: 20, ruleId: 1 }, { start: 30, end: 40, ruleId: 2 }];
    expect([9, 10, 19, 20, 29, 30, 39, 40].map((t) => isExcluded(spans, t))).toEqual([false, true, true, false, false, true, true, false]);
    expect(isExcluded([], 10)).toBe(false);
  });
});

describe('excludedSpans (database)', () => {
  it('answers per carrier, leaves out carriers without rules, and clips to the range', async () => {
    const r1 = await rule([a.carrierId, b.carrierId], { kind: 'period', start: MON + H, end: MON + 3 * H, validFrom: MON - DAY });
    const r2 = await rule([b.carrierId], { kind: 'schedule', weekdays: [1, 2, 3, 4, 5], windows: [[600, 630]], tz: '+00:00', validFrom: MON - DAY });
    const got = await excludedSpans(db, [a.carrierId, b.carrierId, other.carrierId], MON, MON + 2 * H);
    expect([...got.keys()].sort()).toEqual([a.carrierId, b.carrierId].sort());
    expect(got.get(a.carrierId)).toEqual([{ start: MON + H, end: MON + 2 * H, ruleId: r1 }]);
    const day = await excludedSpans(db, [b.carrierId], MON, MON + DAY);
    expect(day.get(b.carrierId)).toEqual([{ start: MON + H, end: MON + 3 * H, ruleId: r1 }, { start: MON + 10 * H, end: MON + 10.5 * H, ruleId: r2 }]);
    expect((await excludedSpans(db, [other.carrierId], MON, MON + DAY)).size).toBe(0);
    expect((await excludedSpans(db, [], MON, MON + DAY)).size).toBe(0);
  });

  it('excludes nothing before a version opened nor after it closed (rules do not rewrite the past)', async () => {
    const late = await site(db, a.customerId, { name: 'Fridge late' });
    const id = await rule([late.carrierId], { kind: 'period', start: MON, end: MON + DAY, validFrom: MON + 6 * H, validTo: MON + 8 * H });
    expect((await excludedSpans(db, [late.carrierId], MON - DAY, MON + 2 * DAY)).get(late.carrierId)).toEqual([{ start: MON + 6 * H, end: MON + 8 * H, ruleId: id }]);
  });

  it('follows the carrier\'s defrost status for the rules of kind defrost', async () => {
    const room = await site(db, a.customerId, { name: 'Cold room' });
    const id = await rule([room.carrierId], { kind: 'defrost', validFrom: Date.now() - DAY });
    const t0 = Date.now() - 1000;
    expect((await excludedSpans(db, [room.carrierId], t0 - DAY, t0)).size).toBe(0);
    await db.query('UPDATE carrier SET status = 5 WHERE id = $1', [room.carrierId]);
    const hi = Date.now() + H;
    const during = (await excludedSpans(db, [room.carrierId], t0, hi)).get(room.carrierId)!;
    // Still in defrost: excluded up to the end of the range asked.
    expect(during).toEqual([{ start: expect.any(Number), end: hi, ruleId: id }]);
    expect(during[0].start).toBeGreaterThanOrEqual(t0);
    await db.query('UPDATE carrier SET status = 1 WHERE id = $1', [room.carrierId]);
    const [period] = await db.query<{ end_ts: Date | null }>('SELECT end_ts FROM carrier_defrost WHERE carrier_id = $1', [room.carrierId]);
    expect(period.end_ts).not.toBeNull();
    // Another carrier's defrost excludes nothing of this one's.
    await db.query('UPDATE carrier SET status = 5 WHERE id = $1', [other.carrierId]);
    const after = (await excludedSpans(db, [room.carrierId], t0, Date.now() + H)).get(room.carrierId)!;
    expect(after).toEqual([{ start: during[0].start, end: new Date(period.end_ts!).getTime(), ruleId: id }]);
  });
});
