import { sql } from 'kysely';
import type { Queryable } from './client.js';
import { crossTenant } from './kysely.js';

/** Values unique on the whole platform, not per customer (device protocol: gateway sn, sensor number). */
const PLATFORM_UNIQUE = { gateway: 'sn', sensor: 'dev_no', relay: 'dev_no', display: 'dev_no', base: 'dev_no' } as const;

/**
 * Whether a platform-unique value is taken by any other row, of any customer. Answers only
 * yes or no, never whose: the one cross-tenant read a record module needs, confined here.
 */
export async function isTaken<T extends keyof typeof PLATFORM_UNIQUE>(q: Queryable, table: T, value: string, exceptId = 0): Promise<boolean> {
  const row = await crossTenant(q, 'platform-unique values')
    .selectFrom(`${table} as t` as 'gateway as t')
    .select('t.id')
    .where(`t.${PLATFORM_UNIQUE[table]}` as 't.sn', '=', value)
    .where('t.id', '<>', exceptId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of these values, the ones already taken on the platform (one query, for imports). */
export async function takenOf<T extends keyof typeof PLATFORM_UNIQUE>(q: Queryable, table: T, values: string[]): Promise<Set<string>> {
  if (!values.length) return new Set();
  const col = `t.${PLATFORM_UNIQUE[table]}` as 't.sn';
  const rows = await crossTenant(q, 'platform-unique values')
    .selectFrom(`${table} as t` as 'gateway as t')
    .select(sql<string>`${sql.ref(col)}`.as('v'))
    .where(col, 'in', values)
    .execute();
  return new Set(rows.map((r) => r.v));
}
