import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Scope } from '../auth/scope.js';
import type { Queryable } from './client.js';
import type { DB } from './schema.gen.js';
import { GuardPlugin, ScopePlugin } from './tenant.js';

/*
 * Kysely over the project's own Queryable: the same typed builder on PGlite and on
 * PostgreSQL, inside or outside a transaction (a transaction is a Queryable too, from
 * Db.tx). Kysely's own transaction API is not used: Db.tx is the one way to open one.
 */

class QueryableConnection implements DatabaseConnection {
  constructor(private q: Queryable) {}
  async executeQuery<R>(c: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, rowCount } = await this.q.run<R>(c.sql, c.parameters as unknown[]);
    return { rows, numAffectedRows: BigInt(rowCount) };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported over Queryable; page the query instead');
  }
}

class QueryableDriver implements Driver {
  private conn: QueryableConnection;
  constructor(q: Queryable) {
    this.conn = new QueryableConnection(q);
  }
  async init() {}
  async acquireConnection() {
    return this.conn;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('open transactions with Db.tx(), not Kysely: the builder runs on the Queryable it was given');
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

const dialectOf = (q: Queryable): Dialect => ({
  createAdapter: () => new PostgresAdapter(),
  createDriver: () => new QueryableDriver(q),
  createIntrospector: (k) => new PostgresIntrospector(k),
  createQueryCompiler: () => new PostgresQueryCompiler(),
});

const bare = new WeakMap<Queryable, Kysely<DB>>();
const guarded = new WeakMap<Queryable, Kysely<DB>>();

function bareOf(q: Queryable): Kysely<DB> {
  let k = bare.get(q);
  if (!k) bare.set(q, (k = new Kysely<DB>({ dialect: dialectOf(q) })));
  return k;
}

/**
 * The builder for tables that hold no customer's data (menu resources, settings, captchas,
 * jobs). A query that touches a tenant table through it fails with TenantScopeError: tenant
 * tables are reached through `scoped(q, scope)` (platform/db/scoped.ts), or by the
 * confined platform code through `crossTenant`.
 */
export function system(q: Queryable): Kysely<DB> {
  let k = guarded.get(q);
  if (!k) guarded.set(q, (k = bareOf(q).withPlugin(new GuardPlugin())));
  return k;
}

/**
 * Every customer's rows, unfiltered: for the code that works across tenants by nature
 * (ingest, the alarm evaluator, jobs, seeding, session resolution before a scope exists).
 * The reason is for the reader: every call site says why it may see every customer.
 */
export function crossTenant(q: Queryable, _reason: string): Kysely<DB> {
  return bareOf(q);
}

/**
 * The typed builder for a caller: every tenant table a statement touches is filtered to the
 * customers of `scope` (platform/db/tenant.ts), in the statement itself, so that an UPDATE or
 * DELETE by id of another customer's row changes nothing. A scene-limited caller's UPDATE or
 * DELETE of a scene-bound table is held to its scenes as well. A platform user's scope (every
 * customer, never scene-limited) adds no filter. Non-tenant tables read as usual. Modules import it from scoped.ts.
 *
 * It lives here, beside `bareOf`, so that the unguarded builder is exported to nobody: the only
 * ways out of this file are `system`, `crossTenant` (both confined by eslint.config.js) and this.
 */
export function scoped(q: Queryable, scope: Pick<Scope, 'customerIds'> & Partial<Pick<Scope, 'sceneIds'>>): Kysely<DB> {
  const base = bareOf(q);
  return scope.customerIds === null ? base : base.withPlugin(new ScopePlugin(scope.customerIds, scope.sceneIds ?? null));
}
