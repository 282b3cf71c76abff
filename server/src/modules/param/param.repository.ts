import { PARAMS, PARAM_KEYS, TRANSMIT_INTERVAL_PARAM, paramNumber, type ParamKey } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { sql } from 'kysely';
import { system } from '../../platform/db/kysely.js';

/** Every known parameter with its current value (or its default). */
export async function list(q: Queryable): Promise<Record<ParamKey, string>> {
  const rows = await system(q).selectFrom('setting').select(['key', 'value']).where('key', 'in', PARAM_KEYS).execute();
  const out = Object.fromEntries(PARAM_KEYS.map((k) => [k, PARAMS[k].default])) as Record<ParamKey, string>;
  for (const r of rows) out[r.key as ParamKey] = r.value;
  return out;
}

/** One parameter's value (its default while unset), for the jobs and the login that read them. */
export async function get(q: Queryable, key: ParamKey): Promise<string> {
  const row = await system(q).selectFrom('setting').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? PARAMS[key].default;
}

/** Seconds a new device of the kind transmits at when its body names none (spec §3 "default transmission intervals"). */
export async function transmitInterval(q: Queryable, kind: keyof typeof TRANSMIT_INTERVAL_PARAM): Promise<number> {
  const key = TRANSMIT_INTERVAL_PARAM[kind];
  return paramNumber(key, await get(q, key));
}

/** Key of the transaction lock that makes parameter changes take turns (a rule may read two values). */
const CHANGE_LOCK = 0x70617261; // 'para'

/** Every value, read after taking the change lock: for a change whose rule reads the others. */
export async function listForChange(q: Queryable): Promise<Record<ParamKey, string>> {
  await sql`SELECT pg_advisory_xact_lock(${CHANGE_LOCK})`.execute(system(q));
  return list(q);
}

export async function set(q: Queryable, key: ParamKey, value: string) {
  await system(q)
    .insertInto('setting')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return { key, value };
}
