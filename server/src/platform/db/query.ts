import { PAGE_SIZES } from '@coldwatch/contract';
import { sql, type AliasableExpression, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB as Schema } from './schema.gen.js';

/*
 * The helpers every module's queries share: one paging, one LIKE escape, one time column, one
 * time range.
 * No module keeps a copy of its own.
 */

/**
 * The expression builder of any statement on the schema's tables, whatever it selects from,
 * joins and aliases (`sensor as x`, `carrier as c`): the type of a condition written once for
 * many statements (the scene limit, sceneLimit.ts; a filter shared by a page and its count).
 * Kysely types a builder by the statement's tables and aliases, ExpressionBuilder<DB, TB> is
 * invariant in both, and a generic over them does not resolve the builder's methods, so no
 * narrower type takes every such statement. The conditions' column names are checked by the
 * tests that run them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a Kysely generic over any table and alias (above)
export type AnyExpressionBuilder = ExpressionBuilder<any, any>;

export interface PageInput {
  iDisplayStart: number;
  iDisplayLength: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export interface Paged<T> {
  total: number;
  rows: T[];
  iDisplayStart: number;
  iDisplayLength: number;
  /** The count stopped at `total`: more rows follow (only with `windowedCountOn`). */
  more?: boolean;
}

/** How far past the current page a windowed count looks (docs/performance.md "Paged lists"). */
export const COUNT_WINDOW = 1_000;

/**
 * Runs a select as one page of the spec's paging: the count of the whole filtered set and
 * the rows of [iDisplayStart, iDisplayStart + iDisplayLength). `sortable` maps the sort keys
 * the contract allows to columns; the default order comes last, so pages are stable.
 *
 * `windowedCountOn` is for the lists that grow without bound (exceptions, notices, logs): the
 * count stops COUNT_WINDOW rows past the page, so a customer with a million exceptions does not
 * pay a million-row count for every page; `more` then tells that the set goes on, and the pager
 * can always move forward (each page looks a window further). It is the scoped builder the query
 * came from: the count wraps the query in a subquery on it, so the tenant scope applies inside.
 * Lists of things a customer owns (devices, carriers, users) keep the exact count.
 *
 * `base` is the same filtered set on the listed table alone, before the joins that only add
 * columns (`key` its primary key; filters and sort columns on that table, or on joins it keeps
 * itself). Then the count reads the table alone, and the page is found on it and joined after:
 * the joins cost 20 rows, not the rows that OFFSET skips (page 100 of the exceptions joined
 * 2,020 rows for 20; docs/performance.md).
 */
export async function paged<DB, TB extends keyof DB, O, BaseDB = DB, BaseTB extends keyof BaseDB = never, BaseO = O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageInput,
  order: { sortable?: Record<string, string>; by: string | string[]; windowedCountOn?: Kysely<Schema>; base?: { from: SelectQueryBuilder<BaseDB, BaseTB, BaseO>; key: string } },
): Promise<Paged<O>> {
  const on = order.windowedCountOn;
  const limit = page.iDisplayStart + page.iDisplayLength + COUNT_WINDOW;
  const bounds = pageBounds(page);
  // Generic over the counted query: the base's tables or the query's own.
  const count = <D, T extends keyof D, R>(counting: SelectQueryBuilder<D, T, R>) =>
    on
      ? on
          .selectFrom(counting.select(sql<number>`1`.as('one')).limit(typeof bounds.limit === 'number' ? limit + 1 : sql.lit(limit + 1)).as('w') as never)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirst()
      : counting.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  const counted = await (order.base ? count(order.base.from) : count(query.clearSelect().clearOrderBy()));
  const ordered = <D, T extends keyof D, R>(q: SelectQueryBuilder<D, T, R>): SelectQueryBuilder<D, T, R> => {
    const col = page.sort && order.sortable?.[page.sort];
    if (col) q = q.orderBy(sql.ref(col), page.order === 'desc' ? 'desc' : 'asc');
    for (const by of [order.by].flat()) {
      const [ref, dir] = by.split(' ');
      q = q.orderBy(sql.ref(ref), dir === 'desc' ? 'desc' : 'asc');
    }
    return q;
  };
  const base = order.base;
  const { limit: size, offset } = bounds;
  const rows = base
    ? await ordered(query)
        .where(sql.ref(base.key) as never, 'in', ordered(base.from.select(sql.ref(base.key).as('k'))).limit(size).offset(offset) as never)
        .execute()
    : await ordered(query).limit(size).offset(offset).execute();
  const n = (counted as { n?: number } | undefined)?.n ?? 0;
  const result = { rows, iDisplayStart: page.iDisplayStart, iDisplayLength: page.iDisplayLength };
  return on && n > limit ? { ...result, total: limit, more: true } : { ...result, total: n };
}

/**
 * The first page of a standard size written into the statement's text, not passed as
 * parameters. The statements are prepared (platform/db/client.ts), and for a LIMIT or OFFSET it
 * cannot see PostgreSQL's generic plan assumes a tenth of the table (100,000 of a million
 * exceptions skipped), judges the generic plan dearer than planning each call afresh, and plans
 * every call: 1–1.3 ms of a sensor or exception page's 2 ms of database time
 * (docs/performance.md). With the numbers in the text the generic plan wins and is planned once
 * per connection. Only the spec's page sizes at offset 0, the page almost every list opens on,
 * are written in, so that each query shape has at most four more texts to cache; deeper pages
 * keep their parameters and their planning.
 */
export function pageBounds(page: PageInput): { limit: number | RawBuilder<number>; offset: number | RawBuilder<number> } {
  const fixed = page.iDisplayStart === 0 && (PAGE_SIZES as readonly number[]).includes(page.iDisplayLength);
  return fixed ? { limit: sql.lit(page.iDisplayLength), offset: sql.lit(0) } : { limit: page.iDisplayLength, offset: page.iDisplayStart };
}

/** An ILIKE pattern matching s anywhere, with LIKE's wildcards in s taken literally. */
export const contains = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;

/** A timestamptz column as UTC milliseconds (the API's time), NULL staying NULL. */
export const msOf = (ref: string): RawBuilder<number> => sql<number>`(extract(epoch from ${sql.ref(ref)}) * 1000)::bigint`;
/** The same as text, for the hand-written hot-path SQL (history readings) that does not go through the builder. */
export const msColumn = (col: string, as: string) => `(extract(epoch from ${col}) * 1000)::bigint AS "${as}"`;
export const msOrNull = (ref: string): RawBuilder<number | null> => sql<number | null>`(extract(epoch from ${sql.ref(ref)}) * 1000)::bigint`;

/** A list's time range on a timestamptz column: from `startTime` to `endTime` (UTC ms), both included; an absent end is open. */
export function inTimeRange(eb: AnyExpressionBuilder, ref: string, f: { startTime?: number; endTime?: number }): Expression<SqlBool>[] {
  const and: Expression<SqlBool>[] = [];
  if (f.startTime !== undefined) and.push(eb(ref, '>=', new Date(f.startTime)));
  if (f.endTime !== undefined) and.push(eb(ref, '<=', new Date(f.endTime)));
  return and;
}

/** `(SELECT count(*) FROM …)` of a correlated subquery, as a number (0 when nothing matches). */
export function countOf<DB, TB extends keyof DB, O>(sub: SelectQueryBuilder<DB, TB, O>): AliasableExpression<number> {
  return sub.select(sql<number>`count(*)::int`.as('n')).$asScalar() as unknown as AliasableExpression<number>;
}
