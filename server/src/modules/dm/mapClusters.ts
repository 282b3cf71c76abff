import { sql, type Kysely } from 'kysely';
import { climateOf, type BoardSensorLike, type BoardState, type MapBox, type MapCluster, type MapClusters, type MapPoint, type SampleMode } from '@coldwatch/contract';
import type { DB } from '../../platform/db/schema.gen.js';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { carrierSelect } from '../carrier/carrier.repository.js';
import { sensorLiveSelect } from '../sensor/sensor.repository.js';
import { boardWhere, sharedScans, type BoardFilters } from './board.js';

/*
 * The monitor map at 100,000 points (docs/scaling.md "The board at 100,000 points"): the whole
 * monitor list was 62 MB for a map that draws a few hundred markers. Here the board's scan
 * (board.ts) judges every filtered carrier's state, each carrier takes its scene's coordinates
 * (or the nearest ancestor's: carriers have none of their own), and the viewport's carriers are
 * binned on the grid Leaflet draws at that zoom, so that a cell is drawn where the browser would
 * have put the cluster. Only the carriers drawn as themselves are read in full.
 */

/** A cell's side in screen pixels, as the map drew its clusters in the browser (MonitorMap). */
export const CELL_PX = 56;
/** A viewport with at most this many carriers is answered carrier by carrier (the browser groups those at one spot and lists them). */
export const POINTS_MAX = 200;
/** At most this many cells across and down: a viewport far larger than a screen gets larger cells, not millions of them. */
const CELLS_ACROSS = 48;
/** Carriers without a position listed beside the map. */
const UNPLACED_FIRST = 50;

export type MapQuery = BoardFilters & { west?: number; south?: number; east?: number; north?: number; zoom?: number };

const scans = sharedScans();

/** Web Mercator pixel position at a zoom (Leaflet's CRS.EPSG3857, 256-pixel tiles). */
export function project(lng: number, lat: number, zoom: number): { x: number; y: number } {
  const scale = 256 * 2 ** zoom;
  const s = Math.min(Math.max(Math.sin((lat * Math.PI) / 180), -0.9999), 0.9999);
  return { x: ((lng + 180) / 360) * scale, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * scale };
}

interface Placed {
  id: number;
  lng: number;
  lat: number;
}

/** Groups whose centres are closer than this (screen pixels) are drawn as one: their circles would overlap. */
const MERGE_PX = 48;

/**
 * Carriers of the viewport grouped by grid cell, then the cells whose centres fell closer than
 * MERGE_PX merged (a city cut by a cell's edge is one circle, not two overlapping ones): each
 * group's members and the groups in a stable order (top to bottom, left to right).
 */
export function binCells(points: Placed[], box: MapBox, zoom: number): Placed[][] {
  const nw = project(box.west, box.north, zoom);
  const se = project(box.east, box.south, zoom);
  const cell = Math.max(CELL_PX, (se.x - nw.x) / CELLS_ACROSS, (se.y - nw.y) / CELLS_ACROSS);
  type Group = { items: Placed[]; sx: number; sy: number };
  const cells = new Map<string, Group>();
  for (const p of points) {
    const { x, y } = project(p.lng, p.lat, zoom);
    const key = `${Math.floor(y / cell)}:${Math.floor(x / cell)}`;
    const c = cells.get(key);
    if (c) {
      c.items.push(p);
      c.sx += x;
      c.sy += y;
    } else cells.set(key, { items: [p], sx: x, sy: y });
  }
  // The largest first, each cell joining a kept group within reach (found through a hash of MERGE_PX squares).
  const kept: Group[] = [];
  const near = new Map<string, Group[]>();
  const square = (x: number, y: number) => [Math.floor(x / MERGE_PX), Math.floor(y / MERGE_PX)];
  for (const c of [...cells.values()].sort((a, b) => b.items.length - a.items.length)) {
    const [cx, cy] = [c.sx / c.items.length, c.sy / c.items.length];
    const [qx, qy] = square(cx, cy);
    let into: Group | undefined;
    for (let dx = -1; dx <= 1 && !into; dx++)
      for (let dy = -1; dy <= 1 && !into; dy++)
        into = near.get(`${qx + dx}:${qy + dy}`)?.find((g) => Math.hypot(g.sx / g.items.length - cx, g.sy / g.items.length - cy) < MERGE_PX);
    if (into) {
      into.items.push(...c.items);
      into.sx += c.sx;
      into.sy += c.sy;
      continue;
    }
    kept.push(c);
    near.set(`${qx}:${qy}`, [...(near.get(`${qx}:${qy}`) ?? []), c]);
  }
  const at = (g: Group) => ({ x: g.sx / g.items.length, y: g.sy / g.items.length });
  return kept
    .sort((a, b) => at(a).y - at(b).y || at(a).x - at(b).x)
    .map((g) => g.items.sort((a, b) => a.id - b.id));
}

/** Scene id → the coordinates of the scene or of its nearest ancestor that has them (of the scenes the caller sees). */
async function scenePlaces(q: Queryable, scope: Scope): Promise<Map<number, { lng: number; lat: number }>> {
  const scenes = await scoped(q, scope)
    .selectFrom('scene as t')
    .select(['t.id', 't.parent_id as parentId', 't.lng', 't.lat'])
    .where((eb) => sceneLimit(eb, scope, 'scene'))
    .execute();
  const byId = new Map(scenes.map((s) => [s.id, s]));
  const out = new Map<number, { lng: number; lat: number } | null>();
  const placeOf = (id: number, depth = 0): { lng: number; lat: number } | null => {
    if (out.has(id)) return out.get(id)!;
    const s = byId.get(id);
    // An unseen parent (outside a scene limit) or a cycle (never written, but cheap to refuse) ends the walk.
    if (!s || depth > 64) return null;
    const own = s.lng !== null && s.lat !== null ? { lng: Number(s.lng), lat: Number(s.lat) } : null;
    const found = own ?? (s.parentId === null ? null : placeOf(s.parentId, depth + 1));
    out.set(id, found);
    return found;
  };
  const placed = new Map<number, { lng: number; lat: number }>();
  for (const s of scenes) {
    const p = placeOf(s.id);
    if (p) placed.set(s.id, p);
  }
  return placed;
}

/** The box of some positions (a loop: a spread of 50,000 arguments would overflow the stack). */
function boxOf(items: Placed[]): MapBox {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const p of items) {
    box.west = Math.min(box.west, p.lng);
    box.east = Math.max(box.east, p.lng);
    box.south = Math.min(box.south, p.lat);
    box.north = Math.max(box.north, p.lat);
  }
  return box;
}

/**
 * The map's answer for one viewport. Without one (the map's first call, to know where to open)
 * and without a state filter no carrier's state is needed: the scan (the cost of this call at
 * 100,000 points) is left out, and so are the unplaced carriers' names, which show their states.
 */
export async function mapClusters(q: Queryable, scope: Scope, f: MapQuery): Promise<MapClusters> {
  const k = scoped(q, scope);
  const filters = { customerId: f.customerId, sceneId: f.sceneId, type: f.type, search: f.search };
  const box = f.west === undefined || f.south === undefined || f.east === undefined || f.north === undefined || f.zoom === undefined ? undefined : { west: f.west, south: f.south, east: f.east, north: f.north };
  const [scan, places, rows] = await Promise.all([
    box || f.state !== 'all' ? scans(k, scope, { ...filters, state: f.state }) : undefined,
    scenePlaces(q, scope),
    carrierSelect(k).clearSelect().select(['c.id', 'c.scene_id as sceneId']).where(await boardWhere(k, scope, filters)).orderBy('c.id').execute(),
  ]);
  const sceneOf = new Map(rows.map((r) => [r.id, r.sceneId]));
  const placeOf = (id: number) => places.get(sceneOf.get(id) ?? 0);

  // The extent covers the filters but the state: the map opens on the same place whichever state is chosen.
  const everyPlaced = rows.flatMap((r) => {
    const p = places.get(r.sceneId);
    return p ? [{ id: r.id, ...p }] : [];
  });
  const extent = everyPlaced.length ? boxOf(everyPlaced) : null;

  // A carrier added after the scan's read has no state yet: it is drawn when the map asks again.
  const passing = scan ? scan.ids.filter((id) => sceneOf.has(id)) : rows.map((r) => r.id);
  const placed: Placed[] = [];
  const unplacedIds: number[] = [];
  for (const id of passing) {
    const p = placeOf(id);
    if (p) placed.push({ id, ...p });
    else unplacedIds.push(id);
  }
  const answer: MapClusters = { placed: placed.length, unplaced: unplacedIds.length, unplacedFirst: [], extent, clusters: [], points: [] };
  if (!scan) return answer;
  const stateOf = (id: number): BoardState => scan.states.get(id)!;

  const first = unplacedIds.slice(0, UNPLACED_FIRST);
  if (first.length)
    answer.unplacedFirst = (await carrierSelect(k).clearSelect().select(['c.id', 'c.name', 's.label as sceneLabel']).where(sql<boolean>`c.id = any(${first}::int[])`).orderBy('c.id').execute()).map((r) => ({
      ...r,
      state: stateOf(r.id),
    }));
  if (!box) return answer;

  const inView = placed.filter((p) => p.lng >= box.west && p.lng <= box.east && p.lat >= box.south && p.lat <= box.north);
  const groups = inView.length <= POINTS_MAX ? inView.map((p) => [p]) : binCells(inView, box, f.zoom!);
  const alone = groups.filter((g) => g.length === 1).map((g) => g[0]);
  answer.clusters = groups.filter((g) => g.length > 1).map((items): MapCluster => {
    const states = { normal: 0, abnormal: 0, offline: 0, stopped: 0 };
    for (const p of items) states[stateOf(p.id)] += 1;
    const n = items.length;
    return { lng: items.reduce((s, p) => s + p.lng, 0) / n, lat: items.reduce((s, p) => s + p.lat, 0) / n, count: n, states, box: boxOf(items) };
  });
  answer.points = await pointsOf(k, scope, alone, stateOf);
  return answer;
}

/**
 * The carriers drawn as themselves: their names, scenes and values by their sample mode (the
 * scan's state beside them, so a marker and its cluster never disagree). Two statements for all.
 */
async function pointsOf(k: Kysely<DB>, scope: Scope, alone: Placed[], stateOf: (id: number) => BoardState): Promise<MapPoint[]> {
  if (!alone.length) return [];
  const ids = alone.map((p) => p.id);
  const [carriers, sensors] = await Promise.all([
    carrierSelect(k)
      .clearSelect()
      .select(['c.id', 'c.name', 's.label as sceneLabel', sql<SampleMode>`c.sample_mode`.as('sampleMode'), 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
      .where(sql<boolean>`c.id = any(${ids}::int[])`)
      .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
      .execute(),
    sensorLiveSelect(k)
      .where(sql<boolean>`x.carrier_id = any(${ids}::int[])`)
      .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
      .execute(),
  ]);
  const of = new Map<number, BoardSensorLike[]>();
  for (const s of sensors) of.set(s.carrierId!, [...(of.get(s.carrierId!) ?? []), s]);
  const at = new Map(alone.map((p) => [p.id, p]));
  return carriers.map((c) => ({
    id: c.id,
    name: c.name,
    sceneLabel: c.sceneLabel,
    state: stateOf(c.id),
    lng: at.get(c.id)!.lng,
    lat: at.get(c.id)!.lat,
    climate: climateOf({ ...c, sensors: of.get(c.id) ?? [] }),
  }));
}
