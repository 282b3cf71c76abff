import type { Kysely } from 'kysely';
import { ATTENTION_ORDER, type Climate, type MonitorCarrier, type TableFilter, type TableSort } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { pageBounds, type PageInput, type Paged } from '../../platform/db/query.js';
import { carrierSelect } from '../carrier/carrier.repository.js';
import { boardWhere, type BoardFilters, type BoardScan } from './board.js';
import { monitorRows, scans } from './dm.repository.js';

/*
 * The monitoring-point table's order over every carrier of its filters (docs/scaling.md "The
 * board at 100,000 points"): the browser asks for one page, sorted and filtered here. The exact
 * state and the carrier's value by its sample mode are the contract's (boardState, climateOf),
 * not SQL columns, so a state filter or a sort by them takes the board's scan (one read of every
 * filtered carrier's few columns and sensors); board order and the name need SQL alone.
 */

export interface TableQuery extends Omit<BoardFilters, 'state'> {
  state: TableFilter;
  sort?: TableSort;
  order?: 'asc' | 'desc';
}

type Scan = (f: BoardFilters) => Promise<BoardScan>;

/** The value a sort compares, null for none (last in either order). */
const keyOf = (sort: Exclude<TableSort, 'name'>, scan: BoardScan, id: number): number | null => {
  if (sort === 'state') return ATTENTION_ORDER[scan.states.get(id)!];
  const c: Climate | undefined = scan.climate(id);
  return c ? c[sort] : null;
};

/**
 * The ids of the page (or of every row, without a page) in the table's order and how many rows
 * the filters hold. Without a sort the order is the board's (id); a sort's ties keep the name's order.
 */
async function tableOrder(k: Kysely<DB>, scope: Scope, f: TableQuery, scan: Scan, page?: PageInput): Promise<{ ids: number[]; total: number }> {
  const { state, sort, order = 'asc' } = f;
  // Named one by one (not the rest of f, which may hold the page): the scan is shared by equal filters (sharedScans).
  const filters = { customerId: f.customerId, sceneId: f.sceneId, type: f.type, search: f.search };
  const where = await boardWhere(k, scope, filters);
  const byName = sort !== undefined;
  let ordered = carrierSelect(k).clearSelect().select('c.id').where(where);
  ordered = byName ? ordered.orderBy('c.name', sort === 'name' ? order : 'asc').orderBy('c.id', sort === 'name' ? order : 'asc') : ordered.orderBy('c.id');
  if (state === 'all' && (sort === undefined || sort === 'name')) {
    if (!page) return withTotal((await ordered.execute()).map((r) => r.id));
    const { limit, offset } = pageBounds(page);
    const found = await ordered.limit(limit).offset(offset).execute();
    const { n } = await carrierSelect(k).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow();
    return { ids: found.map((r) => r.id), total: Number(n) };
  }
  const [rows, scanned] = await Promise.all([ordered.execute(), scan({ ...filters, state: 'all' })]);
  // A carrier added between the two reads has no state yet: it is listed when the table is read again.
  let ids = rows.map((r) => r.id).filter((id) => scanned.states.has(id) && (state === 'all' || scanned.states.get(id) === state));
  if (sort !== undefined && sort !== 'name') {
    const sign = order === 'asc' ? 1 : -1;
    const keyed = ids.map((id) => ({ id, key: keyOf(sort, scanned, id) }));
    keyed.sort((a, b) => (a.key === null ? (b.key === null ? 0 : 1) : b.key === null ? -1 : sign * (a.key - b.key)));
    ids = keyed.map((x) => x.id);
  }
  if (!page) return withTotal(ids);
  return { ids: ids.slice(page.iDisplayStart, page.iDisplayStart + page.iDisplayLength), total: ids.length };
}

const withTotal = (ids: number[]) => ({ ids, total: ids.length });

/** Carriers as the board shows them, in the order of `ids`. */
async function inOrder(q: Queryable, k: Kysely<DB>, ids: number[]): Promise<MonitorCarrier[]> {
  const byId = new Map((await monitorRows(q, k, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One page of the monitoring-point table: filtered by the exact state, searched and sorted on the server. */
export async function monitorTable(q: Queryable, scope: Scope, f: TableQuery & PageInput): Promise<Paged<MonitorCarrier>> {
  const k = scoped(q, scope);
  const { ids, total } = await tableOrder(k, scope, f, (g) => scans(k, scope, g), f);
  return { total, rows: await inOrder(q, k, ids), iDisplayStart: f.iDisplayStart, iDisplayLength: f.iDisplayLength };
}

/**
 * The table's whole filtered view for its export (jobs/export/monitorPoints.ts): every id in the
 * table's order, and a reader of the carriers of some of them, so that the export holds a few
 * hundred carriers at a time, never the whole list.
 */
export async function monitorTableView(q: Queryable, scope: Scope, f: TableQuery) {
  const k = scoped(q, scope);
  const { ids } = await tableOrder(k, scope, f, (g) => scans(k, scope, g));
  return { ids, read: (some: number[]) => inOrder(q, k, some) };
}
