import type { LiveReading } from '@coldwatch/contract';

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
