/**
 * Plausible sensor history for the demo: a set point with a day/night swing, a slow random
 * wander, ordinary door openings that stay inside the zone, defrost cycles, vehicle trips,
 * and a few planned excursions that leave the zone so that exception records exist.
 * Deterministic for a given seed, so two demo databases look alike.
 */

/** A planned departure from the set point: ramps up over riseMin, holds, ramps back down. */
export interface Excursion {
  /** When it starts, in hours before the end of the series. */
  hoursAgo: number;
  field: 'temp' | 'hum';
  /** How far from the set point it goes (°C or %RH; negative goes down). */
  delta: number;
  riseMin: number;
  holdMin: number;
  fallMin: number;
}

export interface SensorProfile {
  /** Set point, °C. */
  temp: number;
  /** Amplitude of the day/night swing, °C. */
  dailyAmp: number;
  /** Standard deviation of the slow random wander, °C. */
  noise: number;
  /** Set point of a hygrothermograph, %RH; absent for a thermometer. */
  hum?: number;
  humNoise?: number;
  /** Ordinary door openings per day, in working hours; each warms by up to doorRise °C and stays inside the zone. */
  doorsPerDay?: number;
  doorRise?: number;
  /** A cold room's defrost cycle: every defrostEveryH hours, doorRise-like warming of defrostRise °C. */
  defrostEveryH?: number;
  defrostRise?: number;
  /** A vehicle: wider wander during daytime trips. */
  trips?: boolean;
  excursions?: Excursion[];
}

export interface Series {
  ts: number[];
  temp: number[];
  hum: (number | null)[];
  volt: number[];
  rssi: number[];
  lqi: number[];
}

/** mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a device number, so each sensor has its own stable history. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const gauss = (rnd: () => number) => {
  const u = Math.max(rnd(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
};

const MIN = 60_000;
const HOUR = 3_600_000;
/** The demo customer's time zone (+08:00): working hours and the day/night swing follow it. */
const TZ_OFFSET = 8 * HOUR;

/** A door opening: quick rise, then exponential recovery. */
function doorShape(dtMin: number, rise: number): number {
  if (dtMin < 0) return 0;
  if (dtMin < 3) return (rise * dtMin) / 3;
  const v = rise * Math.exp(-(dtMin - 3) / 10);
  return v < 0.01 ? 0 : v;
}

/** A planned excursion: trapezoid of riseMin, holdMin, fallMin. */
function excursionShape(dtMin: number, e: Excursion): number {
  if (dtMin < 0) return 0;
  if (dtMin < e.riseMin) return (e.delta * dtMin) / e.riseMin;
  if (dtMin < e.riseMin + e.holdMin) return e.delta;
  const down = dtMin - e.riseMin - e.holdMin;
  if (down < e.fallMin) return e.delta * (1 - down / e.fallMin);
  return 0;
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** Readings every stepMs from `from` (inclusive) to `to` (inclusive), aligned to the step. */
export function generateSeries(profile: SensorProfile, seed: number, from: number, to: number, stepMs: number): Series {
  const rnd = prng(seed);
  const start = Math.ceil(from / stepMs) * stepMs;
  const out: Series = { ts: [], temp: [], hum: [], volt: [], rssi: [], lqi: [] };

  // Door openings: a Poisson-ish sprinkling over working hours (08:00–18:00 local).
  const doors: { at: number; rise: number }[] = [];
  const perDay = profile.doorsPerDay ?? 0;
  if (perDay > 0) {
    for (let day = Math.floor((start + TZ_OFFSET) / (24 * HOUR)); day * 24 * HOUR - TZ_OFFSET <= to; day++) {
      const dayStart = day * 24 * HOUR - TZ_OFFSET;
      const n = Math.max(0, Math.round(perDay + (rnd() - 0.5) * perDay));
      for (let i = 0; i < n; i++) {
        doors.push({ at: dayStart + 8 * HOUR + rnd() * 10 * HOUR, rise: (profile.doorRise ?? 1) * (0.5 + 0.5 * rnd()) });
      }
    }
  }
  const excursions = (profile.excursions ?? []).map((e) => ({ ...e, at: to - e.hoursAgo * HOUR }));

  let wander = 0;
  let humWander = 0;
  const phi = 0.97;
  const k = Math.sqrt(1 - phi * phi);
  for (let t = start; t <= to; t += stepMs) {
    const local = (t + TZ_OFFSET) % (24 * HOUR);
    const hour = local / HOUR;
    // Warmest mid-afternoon, coolest before dawn.
    const daily = profile.dailyAmp * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    const tripping = profile.trips && hour >= 8 && hour < 18;
    wander = phi * wander + k * (profile.noise * (tripping ? 1.6 : 1)) * gauss(rnd);
    humWander = phi * humWander + k * (profile.humNoise ?? 1.5) * gauss(rnd);

    let doorT = 0;
    for (const d of doors) {
      const dt = (t - d.at) / MIN;
      if (dt < 0 || dt > 60) continue;
      // Overlapping openings do not add up: the door is either open or not.
      const v = doorShape(dt, d.rise);
      if (Math.abs(v) > Math.abs(doorT)) doorT = v;
    }
    if (profile.defrostEveryH) {
      const period = profile.defrostEveryH * HOUR;
      const dt = ((t % period) + period) % period / MIN;
      doorT += excursionShape(dt, { hoursAgo: 0, field: 'temp', delta: profile.defrostRise ?? 3, riseMin: 10, holdMin: 10, fallMin: 25 });
    }
    const doorH = doorT * 5;
    let exT = 0;
    let exH = 0;
    for (const e of excursions) {
      const v = excursionShape((t - e.at) / MIN, e);
      if (e.field === 'temp') exT += v;
      else exH += v;
    }

    const days = (t - start) / (24 * HOUR);
    out.ts.push(t);
    out.temp.push(round(profile.temp + daily + wander + doorT + exT, 2));
    out.hum.push(profile.hum === undefined ? null : round(Math.min(99, Math.max(1, profile.hum - daily * 3 + humWander + doorH + exH)), 1));
    out.volt.push(round(3.05 - 0.004 * days + 0.005 * gauss(rnd), 3));
    out.rssi.push(Math.round(-66 + 3 * gauss(rnd)));
    out.lqi.push(Math.max(0, Math.min(255, Math.round(180 + 10 * gauss(rnd)))));
  }
  return out;
}
