/** A reading of the sensor-records widget. */
export interface Point {
  ts: number;
  temp: number | null;
  hum: number | null;
}

/** The history's points followed by the live readings newer than its last (a reading is never drawn twice). */
export function withLive(history: readonly Point[], live: readonly Point[]): Point[] {
  const last = history.at(-1)?.ts ?? -Infinity;
  const seen = new Set<number>();
  const newer = live.filter((p) => p.ts > last && !seen.has(p.ts) && seen.add(p.ts)).sort((a, b) => a.ts - b.ts);
  return [...history.map(({ ts, temp, hum }) => ({ ts, temp, hum })), ...newer];
}
