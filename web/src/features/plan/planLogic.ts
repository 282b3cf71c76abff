import type { LiveReading } from '@coldwatch/contract';
import { pointAt } from '../../ui/playback';

/** A position on the picture as a fraction of its size, kept on the picture. */
export const clampFraction = (v: number) => Math.round(Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0)) * 10_000) / 10_000;

/** Markers with one live reading applied (temperature and humidity of the sensor it names). */
export function withReading<M extends { id: number; temp: number | null; hum: number | null; offline: boolean }>(markers: M[], r: LiveReading): M[] {
  let hit = false;
  const next = markers.map((m) => {
    if (m.id !== r.sensorId) return m;
    hit = true;
    return { ...m, temp: r.temp === undefined ? m.temp : r.temp, hum: r.hum === undefined ? m.hum : r.hum, offline: false };
  });
  return hit ? next : markers;
}

/** A reading of a sensor's period, as history answers it. */
export interface Sample {
  ts: number;
  temp: number | null;
  hum: number | null;
}

/** What each sensor shows at a playback moment: its latest reading at or before it, or null before its first of the period. */
export type Frame = ReadonlyMap<number, Sample | null>;

/** The frame at `cursor` of each sensor's period (points in time order, by sensor id), the same rule as the history chart's playback (pointAt). */
export function frameAt(series: ReadonlyMap<number, readonly Sample[]>, cursor: number): Map<number, Sample | null> {
  const out = new Map<number, Sample | null>();
  for (const [id, points] of series) out.set(id, pointAt(points, cursor) ?? null);
  return out;
}

/**
 * Markers showing a playback frame instead of their live values. A sensor with nothing yet at
 * the moment shows no value and grey (offline), never its live value, which is another time's;
 * a sensor the frame does not hold (its period still loading) is shown so too.
 */
export function withFrame<M extends { id: number; temp: number | null; hum: number | null; offline: boolean }>(markers: readonly M[], frame: Frame): M[] {
  return markers.map((m) => {
    const s = frame.get(m.id);
    return s ? { ...m, temp: s.temp, hum: s.hum, offline: false } : { ...m, temp: null, hum: null, offline: true };
  });
}
