/**
 * Sample modes of spec §3: how the values of the several sensors bound to one carrier become
 * the carrier's one value. Each mode needs a least number of values (latest 1, max/min/avg 2,
 * balanced 3); with fewer the carrier falls back to the latest value, so a carrier with one
 * working sensor left still shows and alarms on it. Shared by the board, history and alarms.
 */
export const SAMPLE_MODES = ['latest', 'max', 'min', 'avg', 'balanced'] as const;
export type SampleMode = (typeof SAMPLE_MODES)[number];

/** The least number of bound sensors a mode needs (spec §3: latest 1+, max/min/avg 2+, balanced 3+). */
export const SAMPLE_MODE_MIN: Record<SampleMode, number> = { latest: 1, max: 2, min: 2, avg: 2, balanced: 3 };

export interface Sample {
  value: number;
  ts: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The carrier's value from its sensors' latest samples; null when none has a value. */
export function carrierValue(mode: SampleMode, samples: readonly (Sample | null | undefined)[]): number | null {
  const s = samples.filter((x): x is Sample => !!x && Number.isFinite(x.value));
  if (!s.length) return null;
  const effective = s.length >= SAMPLE_MODE_MIN[mode] ? mode : 'latest';
  const values = s.map((x) => x.value);
  switch (effective) {
    case 'latest':
      return s.reduce((a, b) => (b.ts > a.ts ? b : a)).value;
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'avg':
      return round2(values.reduce((a, b) => a + b, 0) / values.length);
    case 'balanced': {
      const sorted = [...values].sort((a, b) => a - b).slice(1, -1);
      return round2(sorted.reduce((a, b) => a + b, 0) / sorted.length);
    }
  }
}

/** One sensor's readings of one measure for carrierSeries, in time order. */
export interface SensorSamples {
  /** A reading older than this at a point no longer counts (the sensor is offline by then: 3 × its sample interval + 60 s). */
  staleMs: number;
  samples: readonly Sample[];
  /** Its latest reading before the first of `samples`, if any: the state the series starts from. */
  before?: Sample | null;
}

/**
 * The carrier's value over time (spec §3 sample modes): a point at every time any of its
 * sensors reports, the mode applied to each sensor's latest reading that is not stale then.
 * What the board shows at a moment is the point of that moment; the alarms judge these
 * points as they judge one sensor's readings. Points before `from` are not returned (their
 * readings only set the state).
 */
export function carrierSeries(mode: SampleMode, sensors: readonly SensorSamples[], from = -Infinity): Sample[] {
  const latest: (Sample | null)[] = sensors.map((s) => s.before ?? null);
  const events: { ts: number; i: number; value: number }[] = [];
  sensors.forEach((s, i) => s.samples.forEach((x) => events.push({ ts: x.ts, i, value: x.value })));
  events.sort((a, b) => a.ts - b.ts || a.i - b.i);
  const out: Sample[] = [];
  for (let k = 0; k < events.length; ) {
    const ts = events[k].ts;
    while (k < events.length && events[k].ts === ts) {
      latest[events[k].i] = { ts, value: events[k].value };
      k++;
    }
    if (ts < from) continue;
    const value = carrierValue(
      mode,
      latest.map((x, i) => (x && ts - x.ts <= sensors[i].staleMs ? x : null)),
    );
    if (value !== null) out.push({ ts, value });
  }
  return out;
}
