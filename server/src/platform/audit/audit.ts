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
  // An array stays an array: its indices are its keys.
  const out = (Array.isArray(params) ? [] : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    out[k] = /password|secret|token/i.test(k) ? '***' : v;
  }
  return out;
}

/** The client's address as Fastify resolved it (behind TRUST_PROXY, the forwarded one), cut to the column. */
const addressOf = (req: FastifyRequest | undefined) => req?.ip?.slice(0, 64) || null;

/**
 * One system-log row. The database chains it to its customer's previous row as it is inserted
 * (migration 0030): there is nothing to do here for tamper evidence, and nothing to forget.
 */
export async function writeLog(q: Queryable, req: FastifyRequest | undefined, e: AuditEntry, result: 0 | 1) {
  const s = req?.scope;
  // A refused login has no session and so no customer: the row is the platform's.
  await crossTenant(q, 'the system log is written for any caller, before a session too')
    .insertInto('sys_log')
    .values({
      customer_id: s?.customerId ?? null,
      user_id: s?.userId ?? null,
      operator: s?.account ?? '',
      ip: addressOf(req),
      module: e.module,
      method: e.method,
      content: e.content.slice(0, 250),
      params: JSON.stringify(redact(e.params)),
      result,
    })
    .execute();
}

/** An add's log names the record it made (its id), so the record's operate record finds it later. */
function withCreatedId(e: AuditEntry, r: unknown): AuditEntry {
  const id = (r as { id?: unknown } | null)?.id;
  const p = e.params as Record<string, unknown> | undefined;
  if (typeof id !== 'number' || !p || typeof p !== 'object' || Array.isArray(p) || 'id' in p) return e;
  return { ...e, params: { ...p, id } };
}

/**
 * A mutation: runs fn in one transaction together with its system-log row (spec §3 system
 * log: time, module, operator, method, content, parameters, result). A failure rolls the
 * change back and is logged with result 0 before the error goes on to the caller. The row is
 * the transaction's last statement: inserting it holds its customer's log chain (migration
 * 0030) until the commit, and nothing should wait behind that longer than need be.
 */
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

/**
 * A check before a change (who may do it), outside any transaction: what it refuses leaves its
 * result-0 row, then goes on to the caller.
 */
export async function refusedLogged<T>(db: Db, req: FastifyRequest, e: AuditEntry, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    await writeLog(db, req, e, 0).catch(() => undefined);
    throw err;
  }
}

/** `/service/<module>/…` → module: the contract's tag of the route, else the path's first segment. */
function moduleOf(req: FastifyRequest, path: string): string {
  const tag = (req.routeOptions.schema as { tags?: unknown[] } | undefined)?.tags?.[0];
  if (typeof tag === 'string' && tag) return tag.slice(0, 40);
  return (path.split('/').filter(Boolean)[1] ?? path).slice(0, 40);
}

/**
 * A signed-in caller refused a call for a function code it lacks (500102), logged with result 0:
 * its identity (req.scope, set by the guard), the module from the route, the route's last
 * named segment as the method, the path without its query (which may carry personal data), and
 * why. Written on its own, never inside the refused call's work; it never throws, since the
 * refusal is answered whether or not its row could be written.
 */
export async function logRefusal(db: Db, req: FastifyRequest, reason: string): Promise<void> {
  const route = req.routeOptions.url ?? '';
  const path = req.url.split('?')[0];
  const method = route.split('/').filter((x) => x && !x.startsWith(':') && !x.startsWith('*')).pop() ?? req.method.toLowerCase();
  const entry: AuditEntry = {
    module: moduleOf(req, route || path),
    method: method.slice(0, 60),
    content: `refused ${req.method} ${path}: ${reason}`,
    params: { httpMethod: req.method, url: path, reason },
  };
  await writeLog(db, req, entry, 0).catch((err) => req.log?.warn({ err }, 'the system-log row of a refused call was not written'));
}
