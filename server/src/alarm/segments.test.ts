import { describe, expect, it } from 'vitest';
import { IDLE, effectiveMargin, evolve, firstSettled, isClear, isOut, lastSettled, plan, rulesFor, segment, type Point, type Rule, type State } from './segments.js';

const [high, low] = rulesFor({ temp_min: 2, temp_max: 8.1, hum_min: null, hum_max: null });
const pts = (...vs: number[]): Point[] => vs.map((v, i) => ({ ts: i * 10, v }));
/** Points at the given times (s) with the given values. */
const at = (...tv: [number, number][]): Point[] => tv.map(([s, v]) => ({ ts: s * 1000, v }));
/** The high rule of a 2–8 °C zone with a margin and a delay (s). */
const rule = (margin: number, delayS: number): Rule =>
  rulesFor({ temp_min: 2, temp_max: 8, hum_min: null, hum_max: null, temp_margin: margin, alarm_delay_s: delayS })[0];
const s = (n: number) => n * 1000;

describe('segments without margin or delay (the definition before issue 27)', () => {
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
    // No margin: clear is exactly "not out".
    expect(isClear(high, 8.1)).toBe(true);
    expect(isClear(high, 8.11)).toBe(false);
  });

  it('cuts runs at in-range readings, with first value, peak and end', () => {
    expect(segment(high, IDLE, pts(5, 9, 11, 10, 7, 9))).toEqual([
      { start: 10, first: 9, peak: 11, last: 30, end: 40 },
      { start: 50, first: 9, peak: 9, last: 50, end: null },
    ]);
    expect(segment(low, IDLE, pts(5, 1, 0, 3))).toEqual([{ start: 10, first: 1, peak: 0, last: 20, end: 30 }]);
  });

  it('continues a run from before the window', () => {
    const before: State = { kind: 'run', run: { start: -50, first: 12, peak: 15, last: -10 } };
    expect(segment(high, before, pts(9, 10, 5))).toEqual([{ start: -50, first: 12, peak: 15, last: 10, end: 20 }]);
  });
});

describe('the margin (hysteresis)', () => {
  it('is capped at half the zone width, so a value clear of both limits exists', () => {
    expect(effectiveMargin(2, 8, 0.3)).toBe(0.3);
    expect(effectiveMargin(2, 8, 10)).toBe(3);
    expect(effectiveMargin(5, 5, 1)).toBe(0);
    const [hi, lo] = rulesFor({ temp_min: 4, temp_max: 5, hum_min: null, hum_max: null, temp_margin: 2 });
    expect([hi.clear, lo.clear]).toEqual([4.5, 4.5]);
    expect(isClear(hi, 4.5) && isClear(lo, 4.5)).toBe(true);
    // Humidity has its own margin.
    const [hh] = rulesFor({ temp_min: null, temp_max: null, hum_min: 30, hum_max: 70, hum_margin: 2 });
    expect(hh.clear).toBe(68);
  });

  it('keeps a run going through the band and ends it at the first clear reading', () => {
    const r = rule(0.3, 0);
    expect([isOut(r, 8.1), isClear(r, 8.1), isClear(r, 7.9), isClear(r, 7.7), isClear(r, 7.71)]).toEqual([true, false, false, true, false]);
    // 7.9 is in the band: the run goes on (last moves to it); 7.7 is clear and ends it.
    expect(segment(r, IDLE, at([0, 5], [4, 8.1], [8, 7.9], [12, 8.1], [16, 7.9], [20, 7.7], [24, 7.9]))).toEqual([
      { start: s(4), first: 8.1, peak: 8.1, last: s(16), end: s(20) },
    ]);
  });

  it('opens nothing from the band alone', () => {
    expect(segment(rule(0.3, 0), IDLE, at([0, 7.9], [4, 7.95], [8, 7.8]))).toEqual([]);
  });

  it('turns the flapping of the issue into one exception, where no margin makes one per crossing', () => {
    const flap = Array.from({ length: 30 }, (_, i) => ({ ts: s(i * 4), v: i % 2 ? 8.1 : 7.9 }));
    expect(segment(rule(0.3, 0), IDLE, flap)).toHaveLength(1);
    expect(segment(rule(0, 0), IDLE, flap)).toHaveLength(15);
    expect(segment(rule(0, 60), IDLE, flap)).toHaveLength(1);
  });
});

describe('the delay', () => {
  const r = rule(0, 60);

  it('drops a run shorter than the delay and keeps one that lasted it', () => {
    // Out at 0 and 30, back at 40: 40 s < 60 s, no exception.
    expect(segment(r, IDLE, at([0, 9], [30, 9], [40, 5], [200, 5]))).toEqual([]);
    // Out at 0, still out at 60: an exception, ongoing.
    expect(segment(r, IDLE, at([0, 9], [60, 9.5]))).toEqual([{ start: 0, first: 9, peak: 9.5, last: s(60), end: null }]);
    // Out at 0 and 30, the next reading (clear) only at 70: the run lasted 70 s, an exception, its end still pending.
    expect(segment(r, IDLE, at([0, 9], [30, 9], [70, 5]))).toEqual([{ start: 0, first: 9, peak: 9, last: s(30), end: null }]);
  });

  it('ends a run only once a reading comes a delay after the clear one', () => {
    const run = at([0, 9], [60, 9]);
    expect(segment(r, IDLE, [...run, ...at([70, 5], [100, 5])])).toEqual([{ start: 0, first: 9, peak: 9, last: s(60), end: null }]);
    expect(segment(r, IDLE, [...run, ...at([70, 5], [130, 5])])).toEqual([{ start: 0, first: 9, peak: 9, last: s(60), end: s(70) }]);
  });

  it('merges a crossing back into the run when the value goes out again within the delay', () => {
    expect(segment(r, IDLE, at([0, 9], [60, 9], [70, 5], [100, 10], [110, 9], [120, 5], [190, 5]))).toEqual([
      { start: 0, first: 9, peak: 10, last: s(110), end: s(120) },
    ]);
  });

  it('closes the run at the clear reading and starts a new one when the value goes out after the delay', () => {
    expect(segment(r, IDLE, at([0, 9], [60, 9], [70, 5], [130, 10], [200, 10]))).toEqual([
      { start: 0, first: 9, peak: 9, last: s(60), end: s(70) },
      { start: s(130), first: 10, peak: 10, last: s(200), end: null },
    ]);
  });

  it('with delay 0 ends a run at the clear reading itself', () => {
    const r0 = rule(0, 0);
    expect(evolve(r0, IDLE, at([0, 9], [10, 5])).state).toEqual(IDLE);
    expect(segment(r0, IDLE, at([0, 9], [10, 5], [11, 9]))).toEqual([
      { start: 0, first: 9, peak: 9, last: 0, end: s(10) },
      { start: s(11), first: 9, peak: 9, last: s(11), end: null },
    ]);
  });

  it('continues from an ending state before the window', () => {
    const before: State = { kind: 'ending', run: { start: 0, first: 9, peak: 9, last: s(60) }, c: s(70) };
    expect(segment(r, before, at([100, 9.5]))).toEqual([{ start: 0, first: 9, peak: 9.5, last: s(100), end: null }]);
    expect(segment(r, before, at([130, 5]))).toEqual([{ start: 0, first: 9, peak: 9, last: s(60), end: s(70) }]);
  });

  it('finds settled readings: after them the machine is idle whatever came before', () => {
    const rm = rule(0.3, 60);
    const p = at([0, 9], [10, 7.9], [20, 7.5], [50, 7.9], [80, 7.6], [90, 9], [100, 7.5], [170, 7.5]);
    // 80 is settled (clear at 20, nothing out since, 60 s later); 90 is out; 170 is settled again.
    expect(lastSettled(rm, p)).toBe(7);
    expect(firstSettled(rm, p)).toBe(4);
    expect(lastSettled(rm, p.slice(0, 7))).toBe(4);
    expect(firstSettled(rm, at([0, 7.9], [100, 7.8]))).toBe(-1);
    for (const before of [IDLE, { kind: 'run', run: { start: -1, first: 9, peak: 9, last: -1 } } as State]) {
      expect(evolve(rm, before, p.slice(0, 5)).state).toEqual(IDLE);
    }
    // With delay 0 a clear reading is settled itself.
    expect(lastSettled(rule(0.3, 0), at([0, 9], [10, 7.7], [20, 7.9]))).toBe(2);
  });
});

describe('plan', () => {
  it('keeps ids where runs and stored exceptions share readings', () => {
    const runs = segment(high, IDLE, pts(9, 11, 7, 10, 10));
    // One stored ongoing exception over all of it (before the in-range reading at 20 arrived): it keeps the first part.
    const p = plan(runs, [{ id: 1, start: 0, last: 40, ongoing: true }]);
    expect([...p.identity]).toEqual([[0, 1]]);
    expect(p.close).toEqual([]);
  });

  it('closes an ongoing exception no run covers and prefers the ongoing one when runs merge', () => {
    const runs = segment(high, IDLE, pts(9, 9, 9));
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
