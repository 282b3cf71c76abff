/**
 * `scoped(q, scope)`: the typed builder for a caller, every tenant table filtered to the
 * customers of `scope` (platform/db/tenant.ts). Written in kysely.ts, beside the unguarded
 * builder it puts its plugin on, which is exported to nobody (docs/data-layer.md).
 */
export { scoped } from './kysely.js';
