import { describe, expect, it } from 'vitest';
import { FRESH_MS, rereadOnOpen, sortingOf, tableInput } from './tableQuery';

describe('the monitoring-point table query', () => {
  it("leaves the defaults out, so the first page is the boot's preload (app/pages.tsx) and one cache entry", () => {
    expect(JSON.stringify(tableInput({ state: 'all', search: '', order: 'desc', iDisplayStart: 0, iDisplayLength: 15 }))).toBe('{"query":{"iDisplayStart":0,"iDisplayLength":15}}');
    expect(tableInput({ state: 'stopped', search: 'F1', sort: 'temp', order: 'desc', sceneId: 3, iDisplayStart: 30, iDisplayLength: 15 }).query).toEqual({
      sceneId: 3, customerId: undefined, type: undefined, search: 'F1', state: 'stopped', sort: 'temp', order: 'desc', iDisplayStart: 30, iDisplayLength: 15,
    });
    expect(tableInput({ state: 'all', sort: 'name', order: 'asc', iDisplayStart: 0, iDisplayLength: 15 }).query.order).toBeUndefined();
  });

  it("reads antd's sorter as the server's sort, and nothing for a cleared order or a column the server cannot sort", () => {
    expect(sortingOf({ columnKey: 'temp', order: 'descend' })).toEqual({ sort: 'temp', order: 'desc' });
    expect(sortingOf({ columnKey: 'ts', order: 'ascend' })).toEqual({ sort: 'ts', order: 'asc' });
    expect(sortingOf({ columnKey: 'temp', order: null })).toEqual({});
    expect(sortingOf({ columnKey: 'sensors', order: 'ascend' })).toEqual({});
    expect(sortingOf(undefined)).toEqual({});
  });

  it('reads the page again when the stream opens only if it was read longer ago than FRESH_MS (a new page opens it again; a drop is older)', () => {
    expect(rereadOnOpen(1_000_000, 1_000_000 + FRESH_MS)).toBe(false);
    expect(rereadOnOpen(1_000_000, 1_000_000 + FRESH_MS + 1)).toBe(true);
    expect(rereadOnOpen(0, 1_000_000)).toBe(true);
  });
});
