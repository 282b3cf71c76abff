import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/client.js';
import { crossTenant } from '../db/kysely.js';

export interface AuditEntry {
  module: string;
  method: string;
  content: string;
  params?: unknown;
}

/** Secrets never reach the log. */
function redact(params: unknown): unknown {
  if (!params || typeof params !== 'object') return params ?? null;
  const out: Record<string, unknown> = Array.isArray(params) ? ([] as any) : {};
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    out[k] = /password|secret|token/i.test(k) ? '***' : v;
  }
  return out;
}

export async function writeLog(q: Queryable, req: FastifyRequest | undefined, e: AuditEntry, result: 0 | 1) {
  const s = req?.scope;
  // A refused login has no session and so no customer: the row is the platform's.
  await crossTenant(q, 'the system log is written for any caller, before a session too')
    .insertInto('sys_log')
    .values({
      customer_id: s?.customerId ?? null,
      user_id: s?.userId ?? null,
      operator: s?.account ?? '',
      module: e.module,
      method: e.method,
      content: e.content.slice(0, 250),
      params: JSON.stringify(redact(e.params)),
      result,
    })
    .execute();
}

/**
 * A mutation: runs fn in one transaction together with its system-log row (spec §3 system
 * log: time, module, operator, method, content, parameters, result). A failure rolls the
 * change back and is logged with result 0 before the error goes on to the caller.
 */
/** An add's log names the record it made (its id), so the record's operate record finds it later. */
function withCreatedId(e: AuditEntry, r: unknown): AuditEntry {
  const id = (r as { id?: unknown } | null)?.id;
  const p = e.params as Record<string, unknown> | undefined;
  if (typeof id !== 'number' || !p || typeof p !== 'object' || Array.isArray(p) || 'id' in p) return e;
  return { ...e, params: { ...p, id } };
}

export async function mutate<T>(db: Db, req: FastifyRequest, e: AuditEntry, fn: (q: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.tx(async (q) => {
      const r = await fn(q);
      await writeLog(q, req, withCreatedId(e, r), 1);
      return r;
    });
  } catch (err) {
    await writeLog(db, req, e, 0).catch(() => undefined);
    throw err;
  }
}
