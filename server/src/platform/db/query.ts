import { PAGE_SIZES } from '@coldwatch/contract';
import { sql, type AliasableExpression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/*
 * The helpers every module's queries share: one paging, one LIKE escape, one time column.
 * No module keeps a copy of its own.
 */

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
export async function paged<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageInput,
  order: { sortable?: Record<string, string>; by: string | string[]; windowedCountOn?: Kysely<any>; base?: { from: SelectQueryBuilder<any, any, any>; key: string } },
): Promise<Paged<O>> {
  const counting = order.base?.from ?? query.clearSelect().clearOrderBy();
  const on = order.windowedCountOn;
  const limit = page.iDisplayStart + page.iDisplayLength + COUNT_WINDOW;
  const bounds = pageBounds(page);
  const counted = on
    ? await on
        .selectFrom(counting.select(sql<number>`1`.as('one')).limit(typeof bounds.limit === 'number' ? limit + 1 : sql.lit(limit + 1)).as('w') as never)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirst()
    : await counting.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q => {
    const col = page.sort && order.sortable?.[page.sort];
    if (col) q = q.orderBy(sql.ref(col), page.order === 'desc' ? 'desc' : 'asc') as Q;
    for (const by of [order.by].flat()) {
      const [ref, dir] = by.split(' ');
      q = q.orderBy(sql.ref(ref), dir === 'desc' ? 'desc' : 'asc') as Q;
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

/** `(SELECT count(*) FROM …)` of a correlated subquery, as a number (0 when nothing matches). */
export function countOf<DB, TB extends keyof DB, O>(sub: SelectQueryBuilder<DB, TB, O>): AliasableExpression<number> {
  return sub.select(sql<number>`count(*)::int`.as('n')).$asScalar() as unknown as AliasableExpression<number>;
}
