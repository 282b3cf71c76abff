import {
  AliasNode,
  AndNode,
  BinaryOperationNode,
  CastNode,
  ColumnNode,
  IdentifierNode,
  FunctionNode,
  JoinNode,
  OperationNodeTransformer,
  OperatorNode,
  ParensNode,
  PrimitiveValueListNode,
  RawNode,
  ReferenceNode,
  TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  type DeleteQueryNode,
  type InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely';
import { TENANT_COLUMN } from './schema.gen.js';
import { sceneLimitNode } from './sceneLimit.js';

/*
 * Tenant scope as a property of the query, not of the programmer's memory
 * (docs/tenancy.md "Scope in the data layer"). ScopePlugin rewrites every statement built
 * through `scoped(q, scope)`: each tenant table it reads, joins, updates or deletes from gets
 * `<alias>.customer_id = ANY(<the caller's customers>)` in its WHERE or ON, subqueries
 * included; an INSERT must name a customer of the scope in every row; an upsert never updates
 * another customer's row. For a scene-limited caller, every UPDATE and DELETE on a scene-bound
 * table is held to its scenes too (platform/db/sceneLimit.ts): a write outside the limit changes
 * nothing. Its reads are held by the modules through sceneLimit(). GuardPlugin, on the builder for non-tenant tables, refuses any
 * statement that touches a tenant table.
 */

export class TenantScopeError extends Error {
  constructor(msg: string) {
    super(`tenant scope: ${msg}`);
  }
}

const tenantColumn = (name: string): string | undefined => (TENANT_COLUMN as Record<string, string>)[name];

/** A table reference in FROM/JOIN/UPDATE/DELETE: the tenant table's name and how the query calls it. */
function tenantRef(node: OperationNode): { table: string; alias: string; column: string } | undefined {
  let table: TableNode | undefined;
  let alias: string | undefined;
  if (TableNode.is(node)) table = node;
  else if (AliasNode.is(node) && TableNode.is(node.node)) {
    table = node.node;
    alias = IdentifierNode.is(node.alias) ? node.alias.name : undefined;
  }
  if (!table || table.table.schema) return undefined;
  const name = table.table.identifier.name;
  const column = tenantColumn(name);
  return column ? { table: name, alias: alias ?? name, column } : undefined;
}

// `FROM carrier`, `JOIN "sensor"`, `UPDATE gateway`, `INTO contact` in raw SQL text.
const RAW_TABLE = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;

// By text: the raw fragments of the code are few and come back on every statement built (a
// sensor page holds a dozen), so each is searched once. Bounded, in case some caller builds
// raw texts per call.
const rawTables = new Map<string, string[]>();
const RAW_TEXTS_KEPT = 10_000;

function rawTenantTables(node: RawNode): string[] {
  const text = node.sqlFragments.length === 1 ? node.sqlFragments[0] : node.sqlFragments.join(' ? ');
  let tables = rawTables.get(text);
  if (!tables) {
    tables = [...text.matchAll(RAW_TABLE)].map((m) => m[1].toLowerCase()).filter((t) => tenantColumn(t));
    if (rawTables.size >= RAW_TEXTS_KEPT) rawTables.clear();
    rawTables.set(text, tables);
  }
  return tables;
}

function and(where: WhereNode | undefined, pred: OperationNode): WhereNode {
  return WhereNode.create(where ? AndNode.create(ParensNode.create(where.where), pred) : pred);
}

class ScopeTransformer extends OperationNodeTransformer {
  constructor(
    private readonly ids: readonly number[],
    /** The caller's scene limit (null: not limited): the targets of its writes are held to it. */
    private readonly scenes: readonly number[] | null = null,
  ) {
    super();
  }

  /** The scene limit on the target of an UPDATE or DELETE (platform/db/sceneLimit.ts), for a limited caller. */
  private limitWrites(where: WhereNode | undefined, targets: readonly OperationNode[]): WhereNode | undefined {
    if (this.scenes === null) return where;
    let out = where;
    for (const item of targets) {
      const ref = tenantRef(item);
      const pred = ref && sceneLimitNode(ref.table, ref.alias, this.scenes);
      if (pred) out = and(out, pred);
    }
    return out;
  }

  private pred(alias: string, column: string): OperationNode {
    return BinaryOperationNode.create(
      ReferenceNode.create(ColumnNode.create(column), TableNode.create(alias)),
      OperatorNode.create('='),
      // One customer (almost every caller): a plain `= $n`, which the planner treats as an
      // equality, so an index on (customer_id, start_ts) also gives the order of a page and
      // LIMIT stops early; `= any(array)` would sort every row of the customer first.
      // Several: = any(cast($n as int4[])), one array parameter whatever their number.
      this.ids.length === 1
        ? CastNode.create(ValueNode.create(this.ids[0]), RawNode.createWithSql('int4'))
        : FunctionNode.create('any', [CastNode.create(ValueNode.create([...this.ids]), RawNode.createWithSql('int4[]'))]),
    );
  }

  private scopeWhere(where: WhereNode | undefined, items: readonly OperationNode[] | undefined): WhereNode | undefined {
    let out = where;
    for (const item of items ?? []) {
      const ref = tenantRef(item);
      if (ref) out = and(out, this.pred(ref.alias, ref.column));
    }
    return out;
  }

  private checkCustomer(table: string, value: unknown) {
    if (typeof value !== 'number' || !this.ids.includes(value)) {
      throw new TenantScopeError(`a row of ${table} for customer ${String(value)} is outside the caller's scope`);
    }
  }

  protected override transformSelectQuery(node: SelectQueryNode, queryId?: QueryId): SelectQueryNode {
    const t = super.transformSelectQuery(node, queryId);
    return { ...t, where: this.scopeWhere(t.where, t.from?.froms) };
  }

  protected override transformJoin(node: JoinNode, queryId?: QueryId): JoinNode {
    const t = super.transformJoin(node, queryId);
    const ref = tenantRef(t.table);
    return ref ? JoinNode.cloneWithOn(t, this.pred(ref.alias, ref.column)) : t;
  }

  protected override transformUpdateQuery(node: UpdateQueryNode, queryId?: QueryId): UpdateQueryNode {
    const t = super.transformUpdateQuery(node, queryId);
    const target = t.table && tenantRef(t.table);
    if (target) {
      for (const u of t.updates ?? []) {
        if (ColumnNode.is(u.column) && u.column.column.name === target.column) {
          if (!ValueNode.is(u.value)) throw new TenantScopeError(`${target.table}.${target.column} may only be set to a value`);
          this.checkCustomer(target.table, u.value.value);
        }
      }
    }
    const where = this.scopeWhere(t.where, [...(t.table ? [t.table] : []), ...(t.from?.froms ?? [])]);
    return { ...t, where: this.limitWrites(where, t.table ? [t.table] : []) };
  }

  protected override transformDeleteQuery(node: DeleteQueryNode, queryId?: QueryId): DeleteQueryNode {
    const t = super.transformDeleteQuery(node, queryId);
    const where = this.scopeWhere(t.where, [...t.from.froms, ...(t.using?.tables ?? [])]);
    return { ...t, where: this.limitWrites(where, t.from.froms) };
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId?: QueryId): InsertQueryNode {
    const t = super.transformInsertQuery(node, queryId);
    const target = t.into && tenantRef(t.into);
    if (!target) return t;
    const at = (t.columns ?? []).findIndex((c) => c.column.name === target.column);
    if (at < 0) throw new TenantScopeError(`an insert into ${target.table} must name its ${target.column}`);
    if (!t.values || !ValuesNode.is(t.values)) throw new TenantScopeError(`an insert into ${target.table} must list its values (no INSERT … SELECT)`);
    for (const row of t.values.values) {
      if (PrimitiveValueListNode.is(row)) this.checkCustomer(target.table, row.values[at]);
      else if (ValueListNode.is(row)) {
        const v = row.values[at];
        if (!ValueNode.is(v)) throw new TenantScopeError(`${target.table}.${target.column} must be a value`);
        this.checkCustomer(target.table, v.value);
      }
    }
    if (t.onConflict?.updates) {
      // ON CONFLICT DO UPDATE meets whatever row holds the key: never another customer's.
      const pred = this.pred(target.table, target.column);
      const oc = t.onConflict;
      const updateWhere = WhereNode.create(oc.updateWhere ? AndNode.create(ParensNode.create(oc.updateWhere.where), pred) : pred);
      return { ...t, onConflict: { ...oc, updateWhere } };
    }
    return t;
  }

  protected override transformRaw(node: RawNode, queryId?: QueryId): RawNode {
    const tables = rawTenantTables(node);
    if (tables.length) throw new TenantScopeError(`raw SQL over ${tables.join(', ')} cannot be scoped; write it with the query builder`);
    return super.transformRaw(node, queryId);
  }
}

class GuardTransformer extends OperationNodeTransformer {
  protected override transformTable(node: TableNode, queryId?: QueryId): TableNode {
    if (!node.table.schema && tenantColumn(node.table.identifier.name)) {
      throw new TenantScopeError(`${node.table.identifier.name} holds customers' data: reach it through scoped(q, scope)`);
    }
    return super.transformTable(node, queryId);
  }
  protected override transformRaw(node: RawNode, queryId?: QueryId): RawNode {
    const tables = rawTenantTables(node);
    if (tables.length) throw new TenantScopeError(`${tables.join(', ')} holds customers' data: reach it through scoped(q, scope)`);
    return super.transformRaw(node, queryId);
  }
}

abstract class TransformPlugin implements KyselyPlugin {
  protected abstract transformer(): OperationNodeTransformer;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer().transformNode(args.node, args.queryId);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Filters every tenant table of a statement to the customers in `ids`; with a scene limit
 * (`scenes` not null), the target of every UPDATE and DELETE on a scene-bound table is held to
 * it as well.
 */
export class ScopePlugin extends TransformPlugin {
  constructor(
    private readonly ids: readonly number[],
    private readonly scenes: readonly number[] | null = null,
  ) {
    super();
  }
  protected transformer() {
    return new ScopeTransformer(this.ids, this.scenes);
  }
}

/** Refuses every statement that touches a tenant table. */
export class GuardPlugin extends TransformPlugin {
  protected transformer() {
    return new GuardTransformer();
  }
}
