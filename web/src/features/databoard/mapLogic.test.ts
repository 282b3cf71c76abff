import { describe, expect, it } from 'vitest';
import { cluster, dueAgain, escapeHtml, isSpot, stateCounts, viewOf, worstState, zoomLimits } from './mapLogic';
import { inChina, wgs84ToGcj02 } from './gcj02';

describe('monitor map', () => {
  it('clusters points of one pixel cell at their mean, and leaves distant ones alone', () => {
    const c = cluster(
      [
        { item: 'a', x: 10, y: 10 },
        { item: 'b', x: 30, y: 50 },
        { item: 'c', x: 200, y: 10 },
      ],
      60,
    );
    expect(c).toEqual([
      { items: ['a', 'b'], x: 20, y: 30 },
      { items: ['c'], x: 200, y: 10 },
    ]);
  });
  it('a cluster shows its most urgent state', () => {
    expect(worstState(stateCounts(['normal', 'abnormal', 'stopped']))).toBe('abnormal');
    expect(worstState(stateCounts(['normal', 'offline', 'normal']))).toBe('offline');
    expect(worstState({ normal: 0, abnormal: 0, offline: 0, stopped: 3 })).toBe('stopped');
    expect(stateCounts(['normal', 'offline', 'normal'])).toEqual({ normal: 2, abnormal: 0, offline: 1, stopped: 0 });
  });
  it('asks the server for the viewport a fifth wider, within the world, rounded; never for a box without area', () => {
    expect(viewOf({ west: 116, south: 39, east: 117, north: 40 }, 9.25)).toEqual({ west: 115.8, south: 38.8, east: 117.2, north: 40.2, zoom: 9.25 });
    // Zoomed far out, Leaflet's bounds pass the antimeridian and the poles: the server takes ±180 and ±85.
    expect(viewOf({ west: -300, south: -89, east: 300, north: 89 }, 0.5)).toEqual({ west: -180, south: -85, east: 180, north: 85, zoom: 0.5 });
    // A pan of a fraction of a pixel asks the same.
    expect(viewOf({ west: 116.000001, south: 39, east: 117.000001, north: 40 }, 9.25)).toEqual(viewOf({ west: 116, south: 39, east: 117, north: 40 }, 9.25));
    expect(viewOf({ west: 116, south: 39, east: 116, north: 40 }, 9)).toBeUndefined();
  });
  it('an exception reads the map again only when its answer is at least the gap old', () => {
    expect(dueAgain(1_000, 11_000, 10)).toBe(true);
    expect(dueAgain(1_000, 10_999, 10)).toBe(false);
  });
  it('a box of one position is a spot (a click lists its carriers); any extent is not', () => {
    expect(isSpot({ west: 116.4, south: 39.9, east: 116.4, north: 39.9 })).toBe(true);
    expect(isSpot({ west: 116.4, south: 39.9, east: 116.4004, north: 39.9 })).toBe(false);
  });
  it('zoom stays within a third and three times of the opening scale', () => {
    const z = zoomLimits(10);
    expect(2 ** (z.max - 10)).toBeCloseTo(3);
    expect(2 ** (z.min - 10)).toBeCloseTo(1 / 3);
  });
  it('converts to GCJ-02 only inside China', () => {
    const [lng, lat] = wgs84ToGcj02(116.397428, 39.90923); // Tiananmen
    expect(lng - 116.397428).toBeCloseTo(0.00624, 3);
    expect(lat - 39.90923).toBeCloseTo(0.0014, 3);
    expect(wgs84ToGcj02(2.2945, 48.8584)).toEqual([2.2945, 48.8584]); // Paris
    expect(inChina(121.47, 31.23)).toBe(true);
    expect(inChina(-74, 40.7)).toBe(false);
  });
  it('escapes names before they go into a marker', () => {
    expect(escapeHtml('<img src=x onerror="a">&\'')).toBe('&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;');
  });
});
