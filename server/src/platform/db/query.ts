import { sql, type AliasableExpression, type RawBuilder, type SelectQueryBuilder } from 'kysely';

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
}

/**
 * Runs a select as one page of the spec's paging: the count of the whole filtered set and
 * the rows of [iDisplayStart, iDisplayStart + iDisplayLength). `sortable` maps the sort keys
 * the contract allows to columns; the default order comes last, so pages are stable.
 */
export async function paged<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageInput,
  order: { sortable?: Record<string, string>; by: string | string[] },
): Promise<Paged<O>> {
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirst();
  let q = query;
  const col = page.sort && order.sortable?.[page.sort];
  if (col) q = q.orderBy(sql.ref(col), page.order === 'desc' ? 'desc' : 'asc');
  for (const by of [order.by].flat()) {
    const [ref, dir] = by.split(' ');
    q = q.orderBy(sql.ref(ref), dir === 'desc' ? 'desc' : 'asc');
  }
  const rows = await q.limit(page.iDisplayLength).offset(page.iDisplayStart).execute();
  return { total: (counted as { n?: number } | undefined)?.n ?? 0, rows, iDisplayStart: page.iDisplayStart, iDisplayLength: page.iDisplayLength };
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
