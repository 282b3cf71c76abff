/**
 * The pure part of the monitor map: where each carrier sits (its scene's coordinates, or the
 * nearest ancestor's) and how nearby markers group into clusters at a zoom level.
 */
import type { BoardState } from '@coldwatch/contract';
import type { SceneNode } from '../../ui';

export interface Place {
  lng: number;
  lat: number;
  /** The scene whose coordinates these are. */
  sceneLabel: string;
}

/** Scene id → the coordinates of the scene or of its nearest ancestor that has them. */
export function placesOf(root: SceneNode | undefined): Map<number, Place> {
  const out = new Map<number, Place>();
  const walk = (n: SceneNode, inherited: Place | null) => {
    const own = n.lng !== null && n.lng !== undefined && n.lat !== null && n.lat !== undefined ? { lng: Number(n.lng), lat: Number(n.lat), sceneLabel: n.label } : null;
    const here = own ?? inherited;
    if (n.scene_id && here) out.set(Number(n.scene_id), here);
    for (const c of n.children ?? []) walk(c, here);
  };
  if (root) walk(root, null);
  return out;
}

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
export const worstState = (states: BoardState[]): BoardState => URGENCY.find((s) => states.includes(s)) ?? 'stopped';

/** Spec §9 map zoom: one third to three times the scale the map opened at (in Leaflet's log2 zoom). */
export const zoomLimits = (base: number) => ({ min: base - Math.log2(3), max: base + Math.log2(3) });

/** Text of a divIcon: names come from users, so they are escaped before they reach innerHTML. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
