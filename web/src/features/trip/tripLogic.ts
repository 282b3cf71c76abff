/**
 * The route of a trip coloured by temperature against its carrier's zone (docs/transport.md):
 * each leg between two positions takes the band of the temperature measured at its start (the
 * latest reading at or before it), and consecutive legs of one band make one line.
 */

export type Band = 'in' | 'high' | 'low' | 'none';

/** Spec §9's colours: above the zone orange-red, below it blue, in it green; no reading grey. */
export const BAND_COLORS: Record<Band, string> = { in: '#52c41a', high: '#fa541c', low: '#1677ff', none: '#8c8c8c' };

export interface Zone {
  tempMin: number | null;
  tempMax: number | null;
}

export const bandOf = (v: number | null, z: Zone): Band =>
  v === null ? 'none' : z.tempMax !== null && v > z.tempMax ? 'high' : z.tempMin !== null && v < z.tempMin ? 'low' : 'in';

/** The temperature of the latest point at or before `ts` (points in time order), or null. */
export function tempAt(points: readonly { ts: number; temp?: number | null }[], ts: number): number | null {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].ts <= ts) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = found; i >= 0; i--) {
    const v = points[i].temp;
    if (v !== null && v !== undefined) return v;
  }
  return null;
}

export interface Leg {
  band: Band;
  positions: [number, number][];
}

/** The route as lines of one band each; a lone position is a line of one point. */
export function colouredLegs(route: readonly { ts: number; lat: number; lng: number }[], points: readonly { ts: number; temp?: number | null }[], zone: Zone): Leg[] {
  const legs: Leg[] = [];
  for (let i = 0; i < route.length; i++) {
    const p = route[i];
    const band = bandOf(tempAt(points, p.ts), zone);
    const last = legs[legs.length - 1];
    if (last && last.band === band) last.positions.push([p.lat, p.lng]);
    else {
      // A new band starts where the previous line ends, so the route has no gaps.
      const prev = route[i - 1];
      legs.push({ band, positions: prev ? [[prev.lat, prev.lng], [p.lat, p.lng]] : [[p.lat, p.lng]] });
    }
  }
  return legs;
}

/** The position at `ts` (the latest at or before it; the first before the route starts). */
export function positionAt<T extends { ts: number }>(route: readonly T[], ts: number): T | undefined {
  let at = route[0];
  for (const p of route) {
    if (p.ts > ts) break;
    at = p;
  }
  return at;
}
