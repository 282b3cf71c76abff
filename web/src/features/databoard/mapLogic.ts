/**
 * The pure part of the monitor map: the viewport the browser asks the server for (which
 * clusters the carriers, server/src/modules/dm/mapClusters.ts), how the few carriers it sends
 * one by one group when they share a spot, and how a cluster is coloured.
 */
import { BOARD_STATES, type BoardState, type MapBox } from '@coldwatch/contract';

export interface Point<T> {
  item: T;
  /** Pixel position at the zoom being clustered. */
  x: number;
  y: number;
}

export interface Cluster<T> {
  items: T[];
  x: number;
  y: number;
}

/**
 * Greedy clustering on a pixel grid: points in one cell of `cellPx` join one cluster placed at
 * their mean. O(n), stable for a given zoom; good for the few thousand markers of a customer.
 */
export function cluster<T>(points: Point<T>[], cellPx: number): Cluster<T>[] {
  const cells = new Map<string, { items: T[]; sx: number; sy: number }>();
  for (const p of points) {
    const key = `${Math.floor(p.x / cellPx)}:${Math.floor(p.y / cellPx)}`;
    const c = cells.get(key);
    if (c) {
      c.items.push(p.item);
      c.sx += p.x;
      c.sy += p.y;
    } else cells.set(key, { items: [p.item], sx: p.x, sy: p.y });
  }
  return [...cells.values()].map((c) => ({ items: c.items, x: c.sx / c.items.length, y: c.sy / c.items.length }));
}

/** A cluster wears the most urgent state of its carriers. */
const URGENCY: BoardState[] = ['abnormal', 'offline', 'normal', 'stopped'];
export const worstState = (counts: Record<BoardState, number>): BoardState => URGENCY.find((s) => counts[s] > 0) ?? 'stopped';

/** How many of these carriers are in each state (the server sends a cluster's counts; a group of single points is counted here). */
export function stateCounts(states: BoardState[]): Record<BoardState, number> {
  const out = Object.fromEntries(BOARD_STATES.map((s) => [s, 0])) as Record<BoardState, number>;
  for (const s of states) out[s] += 1;
  return out;
}

/** The viewport as asked of the server, with the zoom it is drawn at. */
export type MapView = MapBox & { zoom: number };

/**
 * The map's bounds as the server takes them: a fifth wider on each side (panning a little shows
 * markers at once; and the tiles of a Chinese provider are drawn in GCJ-02, some hundred metres
 * off the WGS-84 positions the server keeps), within the world, rounded so that a pan of a
 * pixel or two asks nothing new. Undefined for bounds that hold no area.
 */
export function viewOf(b: MapBox, zoom: number): MapView | undefined {
  const padX = (b.east - b.west) / 5;
  const padY = (b.north - b.south) / 5;
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  const v = {
    west: r(Math.max(-180, b.west - padX)),
    south: r(Math.max(-85, b.south - padY)),
    east: r(Math.min(180, b.east + padX)),
    north: r(Math.min(85, b.north + padY)),
    zoom: Math.round(zoom * 100) / 100,
  };
  return v.west < v.east && v.south < v.north ? v : undefined;
}

/** A box that is one spot: its carriers cannot be separated by zooming in, so a click lists them. */
export const isSpot = (b: MapBox) => b.east - b.west < 1e-6 && b.north - b.south < 1e-6;

/** Spec §9 map zoom: one third to three times the scale the map opened at (in Leaflet's log2 zoom). */
export const zoomLimits = (base: number) => ({ min: base - Math.log2(3), max: base + Math.log2(3) });

/** Text of a divIcon: names come from users, so they are escaped before they reach innerHTML. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Whether an answer read at `readAt` may be read again for an exception at `now`: at most once per `gapS` (each read is a scan of every carrier). */
export const dueAgain = (readAt: number, now: number, gapS: number) => now - readAt >= gapS * 1000;
