/**
 * The simulated physics of a cold room, as a pure function of (sensor, time): the live
 * simulation and generateHistory() give the same value for the same instant, so a demo's
 * back-filled week joins its live data without a seam. Random events (door openings,
 * excursions) are drawn from a hash of the sensor and the time bucket, not from a stream.
 */

export interface SensorModel {
  dev: string;
  /** A thermometer, a hygrothermograph, a gas detector (ppm) or a door magnet (1 open, 0 closed). */
  kind: 'th' | 't' | 'gas' | 'door';
  /** °C the carrier is held at; a gas detector's baseline in ppm. */
  setpoint: number;
  /** A door magnet: the device whose door openings it sees (its own by default). */
  doorOf?: string;
  /** %RH around which humidity drifts (th only); default 55. */
  humidity?: number;
  /** Door openings per hour on average; default 0.3. */
  doorRate?: number;
  /** Probability per day of a cooling failure (an excursion of several degrees); default 0.15. */
  excursionRate?: number;
}

export interface Reading {
  dev: string;
  ts: number;
  temp?: number;
  hum?: number;
  gas?: number;
  door?: number;
  volt?: number;
  rssi?: number;
  lqi?: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A uniform number in [0, 1) from the arguments: mixes like murmur3's finaliser. */
export function hash01(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    const s = String(p);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x2f, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** The door openings of `dev` that may still matter at t (this hour's and the last): start, how long open, the hour. */
function doorOpenings(dev: string, rate: number, t: number): { start: number; open: number; b: number }[] {
  const out = [];
  for (let b = Math.floor(t / HOUR) - 1; b <= Math.floor(t / HOUR); b++) {
    if (hash01(dev, 'door', b) >= rate) continue;
    out.push({ start: b * HOUR + hash01(dev, 'door-at', b) * HOUR, open: 30_000 + hash01(dev, 'door-len', b) * 150_000, b });
  }
  return out;
}

/** Temperature added by door openings: a fast rise while open, then a slow recovery. */
function doorEffect(s: SensorModel, t: number): { temp: number; hum: number } {
  let temp = 0;
  let hum = 0;
  for (const { start, open, b } of doorOpenings(s.dev, s.doorRate ?? 0.3, t)) {
    const dt = t - start;
    if (dt < 0) continue;
    const peak = 1.5 + hash01(s.dev, 'door-peak', b) * 2.5;
    const rise = (x: number) => peak * (1 - Math.exp(-x / 60_000));
    const k = dt <= open ? rise(dt) : rise(open) * Math.exp(-(dt - open) / 420_000);
    temp += k;
    hum += k * 4;
  }
  return { temp, hum };
}

/** A cooling failure: the temperature climbs for 20–60 minutes, then the unit recovers. */
function excursion(s: SensorModel, t: number): number {
  const b = Math.floor(t / DAY);
  if (hash01(s.dev, 'exc', b) >= (s.excursionRate ?? 0.15)) return 0;
  const start = b * DAY + hash01(s.dev, 'exc-at', b) * (DAY - 2 * HOUR);
  const len = 20 * 60_000 + hash01(s.dev, 'exc-len', b) * 40 * 60_000;
  const dt = t - start;
  if (dt < 0) return 0;
  const peak = 5 + hash01(s.dev, 'exc-peak', b) * 4;
  if (dt <= len) return peak * (dt / len);
  return peak * Math.exp(-(dt - len) / 600_000);
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** Whether the door `dev` watches is open at t: the same openings that warm its sensors (doorEffect). */
export function doorOpen(dev: string, rate: number, t: number): boolean {
  return doorOpenings(dev, rate, t).some(({ start, open }) => t >= start && t <= start + open);
}

/** The sensor's reading at t (ms). */
export function sample(s: SensorModel, t: number): Reading {
  const phase = hash01(s.dev, 'phase') * 2 * Math.PI;
  const drift = 0.45 * Math.sin((2 * Math.PI * t) / (6 * HOUR) + phase) + 0.25 * Math.sin((2 * Math.PI * t) / DAY + phase * 1.7);
  const noise = (hash01(s.dev, 'n', Math.floor(t / 1000)) - 0.5) * 0.16;
  const volt = round(3.05 - ((t / DAY) % 365) * 0.0005 + (hash01(s.dev, 'v', Math.floor(t / HOUR)) - 0.5) * 0.02, 2);
  const rssi = Math.round(-62 - hash01(s.dev, 'rssi', Math.floor(t / 60_000)) * 18);
  // A gas detector drifts around its baseline (a few per cent); a door magnet follows its door.
  if (s.kind === 'gas') return { dev: s.dev, ts: t, gas: round(Math.max(0, s.setpoint * (1 + drift * 0.08 + noise * 0.3)), 1), volt, rssi };
  if (s.kind === 'door') return { dev: s.dev, ts: t, door: doorOpen(s.doorOf ?? s.dev, s.doorRate ?? 0.3, t) ? 1 : 0, volt, rssi };
  const door = doorEffect(s, t);
  const r: Reading = {
    dev: s.dev,
    ts: t,
    temp: round(s.setpoint + drift + noise + door.temp + excursion(s, t), 2),
    volt,
    rssi,
    lqi: Math.round(150 + hash01(s.dev, 'lqi', Math.floor(t / 60_000)) * 60),
  };
  if (s.kind === 'th') {
    const base = s.humidity ?? 55;
    r.hum = round(Math.min(100, Math.max(0, base + drift * 6 + noise * 10 + door.hum)), 1);
  }
  return r;
}

/**
 * Readings of every sensor from `from` to `to` (ms) every `intervalMs`, in time order per
 * sensor; timestamps sit on multiples of the interval, as live sampling does.
 */
export function generateHistory(opts: { sensors: SensorModel[]; from: number; to: number; intervalMs: number }): Reading[] {
  const out: Reading[] = [];
  const first = Math.ceil(opts.from / opts.intervalMs) * opts.intervalMs;
  for (const s of opts.sensors) for (let t = first; t < opts.to; t += opts.intervalMs) out.push(sample(s, t));
  return out;
}
