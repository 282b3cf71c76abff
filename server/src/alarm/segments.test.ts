import { describe, expect, it } from 'vitest';
import { isOut, plan, rulesFor, segment, type Point } from './segments.js';

const [high, low] = rulesFor({ temp_min: 2, temp_max: 8.1, hum_min: null, hum_max: null });
const pts = (...vs: number[]): Point[] => vs.map((v, i) => ({ ts: i * 10, v }));

describe('segments', () => {
  it('has no humidity rules without both humidity bounds', () => {
    expect(rulesFor({ temp_min: 2, temp_max: 8, hum_min: 30, hum_max: null }).map((r) => r.category)).toEqual(['temp_high', 'temp_low']);
    expect(rulesFor({ temp_min: null, temp_max: null, hum_min: 30, hum_max: 70 }).map((r) => r.category)).toEqual(['hum_high', 'hum_low']);
  });

  it('treats a value on the limit as in range, in float4 like the database', () => {
    expect(isOut(high, 8.1)).toBe(false);
    expect(isOut(high, Math.fround(8.1))).toBe(false);
    expect(isOut(high, 8.11)).toBe(true);
    expect(isOut(low, 2)).toBe(false);
    expect(isOut(low, 1.99)).toBe(true);
  });

  it('cuts runs at in-range readings, with first value, peak and end', () => {
    expect(segment(high, null, pts(5, 9, 11, 10, 7, 9), { kind: 'none' })).toEqual([
      { start: 10, first: 9, peak: 11, last: 30, end: 40 },
      { start: 50, first: 9, peak: 9, last: 50, end: null },
    ]);
    expect(segment(low, null, pts(5, 1, 0, 3), { kind: 'none' })).toEqual([{ start: 10, first: 1, peak: 0, last: 20, end: 30 }]);
  });

  it('continues a run from before the window and into the one after it', () => {
    const prefix = { start: -50, first: 12, peak: 15, last: -10 };
    expect(segment(high, prefix, pts(9, 10), { kind: 'in', ts: 30 })).toEqual([{ start: -50, first: 12, peak: 15, last: 10, end: 30 }]);
    const suffix = { kind: 'out' as const, start: 30, first: 9, peak: 20, last: 90, end: null };
    expect(segment(high, null, pts(5, 9), suffix)).toEqual([{ start: 10, first: 9, peak: 20, last: 90, end: null }]);
    // The window ends in range: the suffix is its own run (a split-off part of an older exception).
    expect(segment(high, null, pts(9, 5), suffix)).toEqual([
      { start: 0, first: 9, peak: 9, last: 0, end: 10 },
      { start: 30, first: 9, peak: 20, last: 90, end: null },
    ]);
  });

  it('keeps ids where runs and stored exceptions share readings', () => {
    const runs = segment(high, null, pts(9, 11, 7, 10, 10), { kind: 'none' });
    // One stored ongoing exception over all of it (before the in-range reading at 20 arrived): it keeps the first part.
    const p = plan(runs, [{ id: 1, start: 0, last: 40, ongoing: true }]);
    expect([...p.identity]).toEqual([[0, 1]]);
    expect(p.close).toEqual([]);
  });

  it('closes an ongoing exception no run covers and prefers the ongoing one when runs merge', () => {
    const runs = segment(high, null, pts(9, 9, 9), { kind: 'none' });
    const p = plan(runs, [
      { id: 1, start: 0, last: 0, ongoing: false },
      { id: 2, start: 20, last: 20, ongoing: true },
    ]);
    expect([...p.identity]).toEqual([[0, 2]]);
    const stale = plan([{ start: 100, first: 9, peak: 9, last: 110, end: null }], [{ id: 3, start: 0, last: 50, ongoing: true }]);
    expect(stale.close.map((e) => e.id)).toEqual([3]);
    expect(stale.identity.size).toBe(0);
  });
});
