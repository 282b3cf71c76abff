import type { Kysely } from 'kysely';
import type { Scope } from '../auth/scope.js';
import type { Queryable } from './client.js';
import { kyselyOf } from './kysely.js';
import type { DB } from './schema.gen.js';
import { ScopePlugin } from './tenant.js';

/**
 * The typed builder for a caller: every tenant table a statement touches is filtered to the
 * customers of `scope` (platform/db/tenant.ts), in the statement itself, so that an UPDATE or
 * DELETE by id of another customer's row changes nothing. A platform user's scope (every
 * customer) adds no filter. Non-tenant tables read as usual.
 */
export function scoped(q: Queryable, scope: Pick<Scope, 'customerIds'>): Kysely<DB> {
  const base = kyselyOf(q);
  return scope.customerIds === null ? base : base.withPlugin(new ScopePlugin(scope.customerIds));
}
