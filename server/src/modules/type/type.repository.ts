import { sql } from 'kysely';
import {
  CARRIER_TYPE_KIND,
  CARRIER_TYPES,
  DEVICE_TYPE_CATALOGUE,
  deviceTypeDef,
  GAS_CODES,
  sensorKindOf,
  sensorTypeKey,
  sensorTypeOffered,
  type CarrierTypeBody,
  type CarrierTypeRow,
  type DeviceKind,
  type DeviceTypeBody,
  type DeviceTypeRow,
} from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound, paramError } from '../../platform/http/errors.js';

/**
 * The type catalogues (spec §3): the types are the contract's (deviceTypes.ts), the platform's
 * decisions about them (offered or not, a note) are rows of `type_setting`, global like the
 * catalogue itself. In-use counts are the caller's own devices and carriers (a platform user's
 * scope is every customer; a scene-limited caller's, those within its scenes).
 */

interface Setting {
  kind: string;
  code: string;
  enabled: boolean;
  remark: string;
  updatedAt: number;
}

async function settings(q: Queryable): Promise<Map<string, Setting>> {
  const rows = await system(q)
    .selectFrom('type_setting')
    .select(['kind', 'code', 'enabled', 'remark', sql<number>`(extract(epoch from updated_at) * 1000)::bigint`.as('updatedAt')])
    .execute();
  return new Map(rows.map((r) => [`${r.kind}:${r.code}`, { ...r, updatedAt: Number(r.updatedAt) }]));
}

/** How many of the caller's devices have each type: sensor rows by type (gas detectors by their gas), gateways, relays, displays and bases by type. */
async function deviceCounts(q: Queryable, scope: Scope): Promise<Map<string, number>> {
  const k = scoped(q, scope);
  const sensors = await k
    .selectFrom('sensor')
    .select(['type', 'gas_code', (eb) => eb.fn.countAll<number>().as('n')])
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'sensor'))
    .groupBy(['type', 'gas_code'])
    .execute();
  const out = new Map<string, number>();
  const add = (key: string, n: number) => out.set(key, (out.get(key) ?? 0) + Number(n));
  for (const s of sensors) add(sensorTypeKey(s.type, s.gas_code), s.n);
  for (const t of ['gateway', 'relay', 'display', 'base'] as const) {
    const rows = await k
      .selectFrom(t)
      .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
      .where((eb) => sceneLimit(eb, scope, t, t))
      .groupBy('type')
      .execute();
    for (const r of rows) add(`${t}:${r.type}`, r.n);
  }
  return out;
}

export async function listDeviceTypes(q: Queryable, scope: Scope, kind?: DeviceKind): Promise<DeviceTypeRow[]> {
  const [set, counts] = await Promise.all([settings(q), deviceCounts(q, scope)]);
  return DEVICE_TYPE_CATALOGUE.filter((d) => !kind || d.kind === kind).map((d) => {
    const s = set.get(`${d.kind}:${d.code}`);
    // A gas detector counts under its gas; one enrolled before gases were named, under the first code.
    const inUse = (counts.get(`${d.kind}:${d.code}`) ?? 0) + (d.kind === 'gas' && d.code === GAS_CODES[0] ? (counts.get('gas:*') ?? 0) : 0);
    return { kind: d.kind, code: d.code, readings: [...d.readings], enabled: s?.enabled ?? true, remark: s?.remark ?? '', inUse, updatedAt: s?.updatedAt ?? null };
  });
}

export async function listCarrierTypes(q: Queryable, scope: Scope): Promise<CarrierTypeRow[]> {
  const set = await settings(q);
  const counts = await scoped(q, scope)
    .selectFrom('carrier')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'carrier'))
    .groupBy('type')
    .execute();
  return CARRIER_TYPES.map((c) => {
    const s = set.get(`${CARRIER_TYPE_KIND}:${c.type}`);
    return { type: c.type, key: c.key, enabled: s?.enabled ?? true, remark: s?.remark ?? '', inUse: Number(counts.find((r) => r.type === c.type)?.n ?? 0), updatedAt: s?.updatedAt ?? null };
  });
}

async function save(q: Queryable, kind: string, code: string, enabled: boolean, remark: string) {
  await system(q)
    .insertInto('type_setting')
    .values({ kind, code, enabled, remark })
    .onConflict((oc) => oc.columns(['kind', 'code']).doUpdateSet({ enabled, remark, updated_at: sql`now()` }))
    .execute();
  return { kind, code };
}

export async function updateDeviceType(q: Queryable, b: DeviceTypeBody) {
  if (!deviceTypeDef(b.kind, b.code)) throw notFound();
  return save(q, b.kind, b.code, b.enabled, b.remark);
}

export const updateCarrierType = (q: Queryable, b: CarrierTypeBody) => save(q, CARRIER_TYPE_KIND, String(b.type), b.enabled, b.remark);

/** The switched-off types, as `kind:code`. */
export async function disabledTypes(q: Queryable): Promise<Set<string>> {
  const rows = await system(q).selectFrom('type_setting').select(['kind', 'code']).where('enabled', '=', false).execute();
  return new Set(rows.map((r) => `${r.kind}:${r.code}`));
}

const refused = (field: string) => paramError('errors.rule.typeDisabled', { [field]: 'errors.rule.typeDisabled' });

/** The catalogues a record takes its type from: the sensor rows' (radio types, gases, the door magnet), the other devices' and the carriers'. */
export type TypedKind = 'sensor' | 'gateway' | 'relay' | 'display' | 'base' | typeof CARRIER_TYPE_KIND;
/** A record's type as its body or row has it; a gas detector also names its gas. */
interface Typed {
  type: string | number;
  gasCode?: string | null;
}

const keyOf = (kind: TypedKind, t: Typed) => (kind === 'sensor' ? sensorTypeKey(String(t.type), t.gasCode) : `${kind}:${t.type}`);

/**
 * A type switched off in the catalogue cannot be chosen (docs/devices.md "Device types"): not for
 * a new device or carrier (no `current`), nor by a change of type; a record keeps the type it has
 * (`current`) and stays editable. Every repository of a typed record calls this on add and update.
 */
export async function checkOffered(q: Queryable, kind: TypedKind, chosen: Typed, current?: Typed) {
  if (current && keyOf(kind, chosen) === keyOf(kind, current)) return;
  const off = await disabledTypes(q);
  if (kind !== 'sensor') {
    if (off.has(keyOf(kind, chosen))) throw refused('type');
    return;
  }
  const type = String(chosen.type);
  if (!sensorTypeOffered(off, type, chosen.gasCode)) throw refused(sensorKindOf(type) === 'gas' && chosen.gasCode ? 'gasCode' : 'type');
}
