import type { Queryable } from '../../platform/db/client.js';
import { SINGLE_SESSION_KEY } from '../user/user.routes.js';
import { RETENTION_SETTING } from '../../ingest/writer.js';

/**
 * Server-side parameters of /sys/paramsetup: rows of the global `setting` table. Each known
 * key has a default (used while no row exists) and a validator; nothing else is read or written.
 */
export const PARAMS = {
  [SINGLE_SESSION_KEY]: {
    default: 'off',
    error: 'errors.param.singleSession',
    valid: (v: string) => v === 'on' || v === 'off',
  },
  [RETENTION_SETTING]: {
    default: '365',
    error: 'errors.param.retentionDays',
    valid: (v: string) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 3650,
  },
} as const satisfies Record<string, { default: string; error: string; valid: (v: string) => boolean }>;

export type ParamKey = keyof typeof PARAMS;
export const PARAM_KEYS = Object.keys(PARAMS) as ParamKey[];

/** Every known parameter with its current value (or its default). */
export async function list(q: Queryable): Promise<Record<ParamKey, string>> {
  const rows = await q.query<{ key: string; value: string }>('SELECT key, value FROM setting WHERE key = ANY($1::text[])', [PARAM_KEYS]);
  const out = Object.fromEntries(PARAM_KEYS.map((k) => [k, PARAMS[k].default])) as Record<ParamKey, string>;
  for (const r of rows) out[r.key as ParamKey] = r.value;
  return out;
}

export async function set(q: Queryable, key: ParamKey, value: string) {
  await q.query('INSERT INTO setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
  return { key, value };
}
