import { sql } from 'kysely';
import {
  CARRIER_TYPE_KIND,
  CARRIER_TYPES,
  DEVICE_TYPE_CATALOGUE,
  deviceTypeDef,
  GAS_CODES,
  type CarrierTypeBody,
  type CarrierTypeRow,
  type DeviceKind,
  type DeviceTypeBody,
  type DeviceTypeRow,
} from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound, paramError } from '../../platform/http/errors.js';

/**
 * The type catalogues (spec §3): the types are the contract's (deviceTypes.ts), the platform's
 * decisions about them (offered or not, a note) are rows of `type_setting`, global like the
 * catalogue itself. In-use counts are the caller's own devices and carriers (a platform user's
 * scope is every customer).
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
    .groupBy(['type', 'gas_code'])
    .execute();
  const out = new Map<string, number>();
  const add = (key: string, n: number) => out.set(key, (out.get(key) ?? 0) + Number(n));
  for (const s of sensors) add(s.type === 'magnet' ? 'magnet:magnet1' : s.type === 'gas' ? `gas:${s.gas_code ?? '*'}` : `sensor:${s.type}`, s.n);
  for (const t of ['gateway', 'relay', 'display', 'base'] as const) {
    for (const r of await k.selectFrom(t).select(['type', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('type').execute()) add(`${t}:${r.type}`, r.n);
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
  const counts = await scoped(q, scope).selectFrom('carrier').select(['type', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('type').execute();
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

/** Whether a sensor row's type is offered: a gas detector while its gas is (any gas, unnamed), a door magnet while its type is. */
export function sensorTypeOffered(off: Set<string>, type: string, gas?: string | null): boolean {
  if (type === 'gas') return gas ? !off.has(`gas:${gas}`) : GAS_CODES.some((c) => !off.has(`gas:${c}`));
  if (type === 'magnet') return !off.has('magnet:magnet1');
  return !off.has(`sensor:${type}`);
}

const refused = (field: string) => paramError('errors.rule.typeDisabled', { [field]: 'errors.rule.typeDisabled' });

/**
 * A new device or carrier, or a changed type, must be one the catalogue offers; what exists
 * keeps its type (`current`).
 */
export async function checkOffered(
  q: Queryable,
  what: { sensor?: string; gas?: string | null; gateway?: string; carrier?: number; other?: { kind: 'relay' | 'display' | 'base'; code: string } },
  current?: string | number,
  currentGas?: string | null,
) {
  const off = await disabledTypes(q);
  if (!off.size) return;
  const sameSensor = what.sensor === current && (what.sensor !== 'gas' || what.gas === currentGas);
  if (what.sensor !== undefined && !sameSensor && !sensorTypeOffered(off, what.sensor, what.gas)) throw refused(what.sensor === 'gas' && what.gas ? 'gasCode' : 'type');
  if (what.gateway !== undefined && what.gateway !== current && off.has(`gateway:${what.gateway}`)) throw refused('type');
  if (what.carrier !== undefined && what.carrier !== current && off.has(`${CARRIER_TYPE_KIND}:${what.carrier}`)) throw refused('type');
  if (what.other && what.other.code !== current && off.has(`${what.other.kind}:${what.other.code}`)) throw refused('type');
}
