import { sql, type Expression, type Insertable, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../platform/db/schema.gen.js';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, type AnyExpressionBuilder, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound, type AppError } from '../../platform/http/errors.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { checkOffered } from '../type/type.repository.js';
import { deviceNumberTaken } from './deviceNumber.js';
import { gatewayAndCarrier, mapUnique } from '../shared/records.js';

/*
 * The devices that hang on a gateway without readings of their own (relays, displays, smart
 * bases), as alias `t` joined to their gateway `g`: their scene limit is their carrier's, as a
 * gateway's; their status is computed the same way; stopping, enabling and deleting displays and
 * bases is the same for each. The table comes from this closed list, never from input.
 */
export type BusTable = 'display' | 'base';
/** Every bus device table: relays too, whose stopping and deleting are their own (relay.switch.ts). */
export type BusDeviceTable = BusTable | 'relay';

export const busLimit = (eb: AnyExpressionBuilder, scope: Scope, alias = 't') => sceneLimit(eb, scope, 'gateway', alias);

/** Stopped (2) by a user, else online (1) or offline (0) as its gateway. */
export const busStatus = () => sql<number>`CASE WHEN t.status = 2 THEN 2 WHEN g.status = 1 THEN 1 ELSE 0 END`;

/** The list filter on that computed status. */
export function busStatusIs(eb: AnyExpressionBuilder, status: number): Expression<SqlBool> {
  if (status === 2) return eb('t.status', '=', 2);
  return eb.and([eb('t.status', '<>', 2), eb('g.status', status === 1 ? '=' : '<>', 1)]);
}

/** The list filters of the bus devices; each kind's page takes those its contract names. */
export interface BusFilter extends PageInput {
  devNo?: string;
  name?: string;
  type?: string;
  status?: number;
  carrierId?: number;
  gatewayId?: number;
}

export const BUS_SORTABLE = { devNo: 't.dev_no', name: 't.name', createdAt: 't.created_at' };

/** A page's condition: the scene limit and the filters given; a name is searched in `names` (a display's nickname too). */
export function busWhere(eb: AnyExpressionBuilder, scope: Scope, f: BusFilter, names = ['t.name']): Expression<SqlBool> {
  const and = [busLimit(eb, scope)];
  if (f.devNo) and.push(eb('t.dev_no', 'ilike', contains(f.devNo)));
  if (f.name) and.push(eb.or(names.map((n) => eb(n, 'ilike', contains(f.name!)))));
  if (f.type) and.push(eb('t.type', '=', f.type));
  if (f.status !== undefined) and.push(busStatusIs(eb, f.status));
  if (f.carrierId) and.push(eb('t.carrier_id', '=', f.carrierId));
  if (f.gatewayId) and.push(eb('t.gateway_id', '=', f.gatewayId));
  return eb.and(and);
}

/** What every bus device's body has: its number, the type it takes from the catalogue, its gateway and carrier. */
interface BusBody {
  devNo: string;
  type: string;
  gatewayId: number;
  carrierId: number | null;
}

/** How a kind's repository writes its table: its columns, the answer to a taken number, the rules of its body beyond the shared ones. */
export interface BusWrite<T extends BusDeviceTable, B extends BusBody> {
  table: T;
  columns: (b: B) => Omit<Insertable<DB[T]>, 'customer_id'>;
  taken: () => AppError;
  check?: (b: B) => void;
}

/**
 * Enrolling a bus device: its gateway and carrier in the caller's scope (the gateway's customer
 * is its owner), its own rules, a type the catalogue offers, a number no device has (device
 * numbers are one namespace; the unique index answers a race the same way).
 */
export async function busAdd<T extends BusDeviceTable, B extends BusBody>(q: Queryable, scope: Scope, w: BusWrite<T, B>, b: B) {
  const k = scoped(q, scope);
  const customerId = await gatewayAndCarrier(k, scope, b);
  w.check?.(b);
  await checkOffered(q, w.table, b);
  if (await deviceNumberTaken(q, b.devNo)) throw w.taken();
  const values = { customer_id: customerId, ...w.columns(b) } as Insertable<DB['base']>;
  const row = await mapUnique(() => k.insertInto(w.table as 'base').values(values).returning('id').executeTakeFirstOrThrow(), { [`${w.table}_dev_no`]: w.taken() });
  return { id: row.id };
}

/** Changing one: as enrolling, within its customer; the type it has it keeps even when the catalogue has since switched it off. */
export async function busUpdate<T extends BusDeviceTable, B extends BusBody>(q: Queryable, scope: Scope, w: BusWrite<T, B>, b: B & { id: number }) {
  const k = scoped(q, scope);
  const cur = await k
    .selectFrom(`${w.table} as t` as 'base as t')
    .select(['t.id', 't.customer_id', 't.type'])
    .where('t.id', '=', b.id)
    .where((eb) => busLimit(eb, scope))
    .forUpdate()
    .executeTakeFirst();
  if (!cur) throw notFound();
  await gatewayAndCarrier(k, scope, b, cur.customer_id);
  w.check?.(b);
  await checkOffered(q, w.table, b, cur);
  if (await deviceNumberTaken(q, b.devNo, { table: w.table, id: b.id })) throw w.taken();
  const values = w.columns(b) as Insertable<DB['base']>;
  await mapUnique(() => k.updateTable(w.table as 'base').set(values).where('id', '=', b.id).execute(), { [`${w.table}_dev_no`]: w.taken() });
  return { id: b.id };
}

/** Every id a device of the table in the caller's scope and limit; else 404. */
export async function busInScope(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await k
    .selectFrom(`${table} as t` as 'display as t')
    .select('t.id')
    .where('t.id', 'in', unique)
    .where((eb) => busLimit(eb, scope))
    .execute();
  if (rows.length !== unique.length) throw notFound();
}

export async function busSetStatus(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[], stopped: boolean): Promise<number> {
  await busInScope(k, scope, table, ids);
  const rows = await k
    .updateTable(`${table} as t` as 'display as t')
    .set({ status: stopped ? 2 : 0 })
    .where('t.id', 'in', ids)
    .where('t.status', stopped ? '<>' : '=', 2)
    .returning('t.id')
    .execute();
  return rows.length;
}

export async function busRemove(k: Kysely<DB>, scope: Scope, table: BusTable, ids: number[]) {
  await busInScope(k, scope, table, ids);
  const gone = await k.deleteFrom(`${table} as t` as 'display as t').where('t.id', 'in', ids).returning('t.id').execute();
  return { deleted: gone.length };
}
