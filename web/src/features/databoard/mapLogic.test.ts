import { describe, expect, it } from 'vitest';
import { cluster, escapeHtml, placesOf, worstState, zoomLimits } from './mapLogic';
import { inChina, wgs84ToGcj02 } from './gcj02';
import type { SceneNode } from '../../ui';

const node = (over: Partial<SceneNode>): SceneNode => ({ code: 'x', label: 'x', nodeType: 'scene', scene_id: null, scope_id: null, funcType: 0, lng: null, lat: null, children: [], ...over });

describe('monitor map', () => {
  it('places a scene at its own coordinates or its nearest ancestor\'s', () => {
    const tree = node({
      code: 'all_node',
      children: [
        node({ scene_id: 1, label: 'Hospital', lng: 116.4, lat: 39.9, children: [node({ scene_id: 2, label: 'Ward', children: [node({ scene_id: 3, label: 'Lab', lng: 116.5, lat: 40 })] })] }),
        node({ scene_id: 4, label: 'Nowhere' }),
      ],
    });
    const p = placesOf(tree);
    expect(p.get(2)).toEqual({ lng: 116.4, lat: 39.9, sceneLabel: 'Hospital' });
    expect(p.get(3)).toEqual({ lng: 116.5, lat: 40, sceneLabel: 'Lab' });
    expect(p.has(4)).toBe(false);
  });
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
    expect(worstState(['normal', 'abnormal', 'stopped'])).toBe('abnormal');
    expect(worstState(['normal', 'offline'])).toBe('offline');
    expect(worstState(['stopped'])).toBe('stopped');
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
