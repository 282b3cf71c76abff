import { describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { binCells, POINTS_MAX, project } from './mapClusters.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const ask = requester(() => t);

const WORLD = 'west=-180&south=-85&east=180&north=85';
const map = (cookie: string, query: string) => call(t, cookie, 'GET', `/service/dm/mapClusters?${query}`);
/** Every carrier an answer draws: the clusters' counts and the single points. */
const drawn = (r: any) => r.clusters.reduce((s: number, c: any) => s + c.count, 0) + r.points.length;

describe('the map grid', () => {
  it('projects as Leaflet does (Web Mercator, 256-pixel tiles)', () => {
    expect(project(0, 0, 0)).toEqual({ x: 128, y: 128 });
    expect(project(180, 0, 1).x).toBe(512);
    expect(project(0, 60, 3).y).toBeLessThan(project(0, 0, 3).y);
  });
  it('puts points of one cell together and points of two cells apart, in a stable order', () => {
    const box = { west: 100, south: 20, east: 130, north: 45 };
    const p = (id: number, lng: number, lat: number) => ({ id, lng, lat });
    const cells = binCells([p(1, 116.4, 39.9), p(2, 121.5, 31.2), p(3, 116.41, 39.91)], box, 5);
    expect(cells.map((c) => c.map((x) => x.id))).toEqual([[1, 3], [2]]);
    // Zoom 12 over the same box (87,000 pixels across) would give each of 10,000 spread points a cell: the cells grow instead, at most 48 across (49 with the grid's offset).
    const spread = Array.from({ length: 10_000 }, (_, i) => p(i, 100 + (i % 100) * 0.3, 20 + Math.floor(i / 100) * 0.25));
    expect(binCells(spread, box, 12).length).toBeLessThanOrEqual(49 * 49);
    // Two carriers a few pixels apart across a cell's edge are one circle, not two overlapping ones.
    const edge = project(0, 0, 10).x;
    const lngAt = (x: number) => (x / (256 * 2 ** 10)) * 360 - 180;
    const cellEdge = Math.ceil(edge / 56) * 56;
    expect(binCells([p(1, lngAt(cellEdge - 2), 0), p(2, lngAt(cellEdge + 2), 0)], { west: -1, south: -1, east: 1, north: 1 }, 10)).toEqual([[p(1, lngAt(cellEdge - 2), 0), p(2, lngAt(cellEdge + 2), 0)]]);
    // A screen-sized box at the same zoom keeps the 56-pixel cells: points 0.3° (870 pixels) apart stay apart.
    expect(binCells([p(1, 100.1, 20.1), p(2, 100.4, 20.1)], { west: 100, south: 20, east: 100.5, north: 20.3 }, 12)).toHaveLength(2);
  });
});

describe('the monitor map clustered on the server', () => {
  it('answers per cell with counts that sum to the board\'s, filtered as the board is, and only in scope', async () => {
    // A's ward at Shanghai; a sub-ward with no coordinates of its own (it takes the ward's); a store room with none at all.
    await t.db.query('UPDATE scene SET lng = 121.47, lat = 31.23 WHERE id = $1', [a.sceneId]);
    const sub = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'AlphaSub', parentId: a.sceneId });
    const far = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'AlphaBeijing', lng: 116.4, lat: 39.9 });
    const store = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'AlphaStore' });
    await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'AlphaUnplaced', type: 2, sceneId: store.id, tempMin: 2, tempMax: 8 });
    // Enough carriers that the viewport is answered by cells: POINTS_MAX + 50, half in the sub-ward, half in Beijing.
    const n = POINTS_MAX + 50;
    await t.db.query(
      `INSERT INTO carrier (customer_id, scene_id, name, type, temp_min, temp_max) SELECT $1, CASE WHEN g % 2 = 0 THEN $2::int ELSE $3::int END, 'AlphaMap' || g, 2, 2, 8 FROM generate_series(1, $4) g`,
      [a.customerId, sub.id, far.id, n],
    );
    await t.db.query('UPDATE sensor SET last_temp = 9.5, status = 1, last_ts = now() WHERE id = $1', [a.sensorId]);

    const counts = await call(t, a.cookie, 'GET', '/service/dm/monitorCounts');
    const world = await map(a.cookie, `${WORLD}&zoom=3`);
    expect(world.placed + world.unplaced).toBe(counts.filters.all);
    expect(world.unplaced).toBe(1);
    expect(world.unplacedFirst).toEqual([expect.objectContaining({ name: 'AlphaUnplaced', sceneLabel: 'AlphaStore', state: 'offline' })]);
    expect(drawn(world)).toBe(world.placed);
    // Shanghai and Beijing are cells apart at zoom 3: two clusters, their states summing to their counts; the fridge is abnormal.
    expect(world.clusters).toHaveLength(2);
    for (const c of world.clusters) expect(Object.values(c.states).reduce((s: number, x: any) => s + x, 0)).toBe(c.count);
    expect(world.clusters.reduce((s: number, c: any) => s + c.states.abnormal, 0)).toBe(1);
    expect(world.extent).toEqual({ west: 116.4, south: 31.23, east: 121.47, north: 39.9 });

    // Zoomed on Beijing: only its carriers (POINTS_MAX / 2 + 25 ≤ POINTS_MAX), each as itself with its values.
    const beijing = await map(a.cookie, 'west=116&south=39.5&east=117&north=40.5&zoom=9');
    expect(beijing.clusters).toEqual([]);
    expect(beijing.points).toHaveLength(n / 2);
    expect(beijing.points[0]).toMatchObject({ lng: 116.4, lat: 39.9, sceneLabel: 'AlphaBeijing', state: 'offline', climate: { temp: null } });
    // The fridge alone in its viewport: its state and value, for its marker and popup.
    const fridge = await map(a.cookie, `sceneId=${a.sceneId}&search=AlphaFridge&${WORLD}&zoom=3`);
    expect(fridge.points).toEqual([expect.objectContaining({ id: a.carrierId, name: 'AlphaFridge', state: 'abnormal', lng: 121.47, lat: 31.23, climate: expect.objectContaining({ temp: 9.5, tempState: 'high' }) })]);

    // The board's filters: the state, the scene subtree (the ward holds its sub-ward).
    const abnormal = await map(a.cookie, `state=abnormal&${WORLD}&zoom=3`);
    expect(drawn(abnormal)).toBe(counts.filters.abnormal);
    expect(abnormal.extent).toEqual(world.extent);
    const ward = await map(a.cookie, `sceneId=${a.sceneId}&${WORLD}&zoom=3`);
    expect(drawn(ward)).toBe(n / 2 + 1);
    expect(drawn(await map(a.cookie, `search=AlphaMap1&${WORLD}&zoom=3`))).toBe((await call(t, a.cookie, 'GET', '/service/dm/monitorCounts?search=AlphaMap1')).carriers);

    // Without a viewport: the extent and counts only (no state needed, no names: unplacedFirst shows states); with a state filter the counts are its.
    expect(await map(a.cookie, '')).toEqual({ placed: world.placed, unplaced: 1, unplacedFirst: [], clusters: [], points: [], extent: world.extent });
    expect(await map(a.cookie, 'state=abnormal')).toMatchObject({ placed: 1, unplaced: 0, extent: world.extent });

    // Another customer sees none of it; the platform administrator sees both.
    const beta = await map(b.cookie, `${WORLD}&zoom=3`);
    expect(JSON.stringify(beta)).not.toContain('Alpha');
    expect(beta).toMatchObject({ placed: 0, clusters: [], points: [], extent: null });
    const root = await map(await t.login('admin'), `${WORLD}&zoom=3`);
    expect(root.placed + root.unplaced).toBe(counts.filters.all + 1);
  });

  it('refuses an inverted, out-of-range or partial viewport with the parameter error', async () => {
    for (const bad of [
      'west=120&south=30&east=110&north=40&zoom=5', // west east of east
      'west=110&south=40&east=120&north=30&zoom=5', // south north of north
      'west=110&south=30&east=190&north=40&zoom=5', // longitude out of range
      'west=110&south=-95&east=120&north=40&zoom=5', // latitude out of range
      'west=110&south=30&east=120&north=40&zoom=30', // zoom out of range
      'west=110&south=30&east=120&north=40', // no zoom
    ]) {
      const r = await ask(a.cookie, 'GET', `/service/dm/mapClusters?${bad}`);
      expect(r.state.code, bad).toBe(Code.PARAM_ERROR);
    }
    expect((await ask(a.cookie, 'GET', '/service/dm/mapClusters?west=110&south=30&east=120&north=40&zoom=5')).state.code).toBe(Code.OK);
  });
});
