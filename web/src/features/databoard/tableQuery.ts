/** The monitoring-point table's query (useMonitorTable) and its sort as antd's table reports it: pure, tested on their own. */
import { TABLE_SORTS, type TableFilter, type TableSort } from '@coldwatch/contract';

export interface TableQuery {
  sceneId?: number;
  customerId?: number;
  type?: number;
  search?: string;
  state: TableFilter;
  sort?: TableSort;
  order?: 'asc' | 'desc';
  iDisplayStart: number;
  iDisplayLength: number;
}

/** The query as sent: a default left out, so that the same view is one cache entry whoever asks (app/pages.tsx preloads the first page). */
export const tableInput = (q: TableQuery) => ({
  query: {
    sceneId: q.sceneId,
    customerId: q.customerId,
    type: q.type,
    search: q.search || undefined,
    state: q.state === 'all' ? undefined : q.state,
    sort: q.sort,
    order: q.sort && q.order === 'desc' ? ('desc' as const) : undefined,
    iDisplayStart: q.iDisplayStart,
    iDisplayLength: q.iDisplayLength,
  },
});

export interface Sorting {
  sort?: TableSort;
  order?: 'asc' | 'desc';
}

/** antd's sorter (one column, or none when the order is cleared) as the server's sort; a column it cannot sort by is none. */
export function sortingOf(sorter: { columnKey?: unknown; order?: 'ascend' | 'descend' | null } | undefined): Sorting {
  if (!sorter?.order || !(TABLE_SORTS as readonly unknown[]).includes(sorter.columnKey)) return {};
  return { sort: sorter.columnKey as TableSort, order: sorter.order === 'descend' ? 'desc' : 'asc' };
}

/** A page read this recently is not read again when the stream opens. */
export const FRESH_MS = 5_000;

/**
 * Whether the stream's opening should read the page again: it opens again for each new page's
 * sensors, and a page read within FRESH_MS missed nothing worth a second read (a sorted page is a
 * scan of every carrier, docs/scaling.md "The board at 100,000 points"); after a drop it is older.
 */
export const rereadOnOpen = (readAt: number, now: number) => now - readAt > FRESH_MS;
