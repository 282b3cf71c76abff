import type { Kysely } from 'kysely';
import { Code, EXCEPTION_STATUS, type ExceptionEvent, type Locale } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, notFound } from '../../platform/http/errors.js';
import { exceptionLimitOf } from './exception.repository.js';
import { copySignature, type Signer } from './signing.js';

/*
 * The handling of exception records (spec §3, §4; docs/alarms.md "Handling and signatures"):
 * pending → processed (handle) → closed (close). Every step is a signed row of
 * exception_handling, never changed; exception_record keeps the current state for the lists.
 *
 * Each call is judged twice: before the signature is asked for (`check…`, without locks, so
 * that a wrong id or state is answered without a password and nothing is counted), and again
 * inside the step's transaction with the rows locked (the state may have moved in between).
 */

type Row = { id: number; customer_id: number; status: number; ongoing: boolean; carrier_id: number | null; sensor_id: number | null; gateway_id: number | null; category: string };

/** The caller's exceptions by id (locked with `lock`); one foreign or unknown id makes the whole call 404. */
export async function targets(q: Queryable, scope: Scope, ids: number[], lock = false): Promise<Row[]> {
  const k = scoped(q, scope);
  let query = k
    .selectFrom('exception_record as e')
    .select(['e.id', 'e.customer_id', 'e.status', 'e.ongoing', 'e.carrier_id', 'e.sensor_id', 'e.gateway_id', 'e.category'])
    .where('e.id', 'in', ids)
    .where((eb) => exceptionLimitOf(eb, scope))
    .orderBy('e.id');
  if (lock) query = query.forUpdate();
  const rows = await query.execute();
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

const failed = (key: string) => new AppError(Code.FAILED, `errors.exception.${key}`);

/** Handling takes pending records only: a processed one is corrected (a new step), a closed one is final. */
export function checkHandle(rows: Row[]) {
  if (rows.some((r) => r.status === EXCEPTION_STATUS.closed)) throw failed('closed');
  if (rows.some((r) => r.status !== EXCEPTION_STATUS.pending)) throw failed('alreadyHandled');
}

/** Closing takes processed records that are over (spec §4): a pending one is handled first, an ongoing one waits. */
export function checkClose(rows: Row[]) {
  if (rows.some((r) => r.status === EXCEPTION_STATUS.closed)) throw failed('alreadyClosed');
  if (rows.some((r) => r.status !== EXCEPTION_STATUS.processed)) throw failed('notProcessed');
  if (rows.some((r) => r.ongoing)) throw failed('ongoing');
}

/** A correction changes a processed record's handling; a pending one is handled, a closed one is final (a comment may still be added). */
export function checkCorrect(rows: Row[]) {
  if (rows.some((r) => r.status === EXCEPTION_STATUS.closed)) throw failed('closed');
  if (rows.some((r) => r.status !== EXCEPTION_STATUS.processed)) throw failed('notProcessed');
}

export interface Reason {
  id: number;
  /** The name in the signer's language (else the other), as the step records it. */
  name: string;
}

/**
 * The reason of a handling: a reason of the catalogue (in the caller's scope) of every
 * exception's customer, enabled. A foreign or unknown one is a 404 like a foreign exception.
 */
export async function reasonFor(q: Queryable, scope: Scope, reasonId: number, rows: Row[], locale: Locale): Promise<Reason> {
  const r = await scoped(q, scope).selectFrom('ex_catalog').select(['id', 'customer_id', 'name_zh', 'name_en', 'enabled']).where('id', '=', reasonId).executeTakeFirst();
  if (!r) throw notFound();
  if (rows.some((x) => x.customer_id !== r.customer_id)) throw failed('reasonOtherCustomer');
  if (!r.enabled) throw failed('reasonDisabled');
  const name = locale === 'zh-CN' ? r.name_zh || r.name_en : r.name_en || r.name_zh;
  return { id: r.id, name };
}

export interface Handling {
  measures: string;
  comment: string;
  judgement: 'confirmed' | 'suspected';
  excluded: boolean;
  excludedWhy: string;
  meaning: 'reviewed' | 'approved';
}

interface Step {
  action: 'handle' | 'close' | 'comment' | 'correct';
  meaning: 'reviewed' | 'approved' | 'closed';
  statusAfter: number;
  reason?: Reason;
  handling?: Handling;
  comment?: string;
}

/** Writes one signed step per record and, for handle and correct, the record's current state. */
async function sign(k: Kysely<DB>, q: Queryable, scope: Scope, signer: Signer, rows: Row[], step: Step) {
  const copies = new Map<number, number | null>();
  for (const customerId of new Set(rows.map((r) => r.customer_id))) copies.set(customerId, await copySignature(q, scope, signer, customerId));
  const h = step.handling;
  await k
    .insertInto('exception_handling')
    .values(
      rows.map((r) => ({
        customer_id: r.customer_id,
        exception_id: r.id,
        action: step.action,
        user_id: signer.userId,
        user_account: signer.account,
        user_name: signer.name,
        meaning: step.meaning,
        reason_id: step.reason?.id ?? null,
        reason: step.reason?.name ?? '',
        measures: h?.measures ?? '',
        comment: step.comment ?? h?.comment ?? '',
        judgement: h?.judgement ?? null,
        excluded: h ? h.excluded : null,
        excluded_why: h?.excluded ? h.excludedWhy : '',
        status_before: r.status,
        status_after: step.statusAfter,
        signature_id: copies.get(r.customer_id) ?? null,
      })),
    )
    .execute();
  const ids = rows.map((r) => r.id);
  if (h && step.reason) {
    await k
      .updateTable('exception_record')
      .set({
        status: step.statusAfter,
        reason_id: step.reason.id,
        reason: step.reason.name,
        measures: h.measures,
        judgement: h.judgement,
        excluded: h.excluded,
        excluded_why: h.excluded ? h.excludedWhy : '',
      })
      .where('id', 'in', ids)
      .execute();
  } else if (rows.some((r) => r.status !== step.statusAfter)) {
    await k.updateTable('exception_record').set({ status: step.statusAfter }).where('id', 'in', ids).execute();
  }
  return rows.map(eventOf);
}

/** What the live stream tells the lists after the commit (the record's own state, not a new excursion). */
const eventOf = (r: Row): ExceptionEvent => ({ customerId: r.customer_id, exceptionId: r.id, carrierId: r.carrier_id, sensorId: r.sensor_id, gatewayId: r.gateway_id, category: r.category, ongoing: r.ongoing });

/** Handle pending records, all or none: each gets its step, and becomes processed. */
export async function handle(q: Queryable, scope: Scope, signer: Signer, ids: number[], reasonId: number, h: Handling, locale: Locale) {
  const rows = await targets(q, scope, ids, true);
  checkHandle(rows);
  const reason = await reasonFor(q, scope, reasonId, rows, locale);
  const events = await sign(scoped(q, scope), q, scope, signer, rows, { action: 'handle', meaning: h.meaning, statusAfter: EXCEPTION_STATUS.processed, reason, handling: h });
  return { result: { handled: rows.length, status: EXCEPTION_STATUS.processed }, events };
}

/** Correct a processed record's handling: a new step (its comment says why); the earlier step stays as signed. */
export async function correct(q: Queryable, scope: Scope, signer: Signer, id: number, reasonId: number, h: Handling, locale: Locale) {
  const rows = await targets(q, scope, [id], true);
  checkCorrect(rows);
  const reason = await reasonFor(q, scope, reasonId, rows, locale);
  const events = await sign(scoped(q, scope), q, scope, signer, rows, { action: 'correct', meaning: h.meaning, statusAfter: EXCEPTION_STATUS.processed, reason, handling: h });
  return { result: { id }, events };
}

/** Close processed records that are over, all or none. */
export async function close(q: Queryable, scope: Scope, signer: Signer, ids: number[], comment: string) {
  const rows = await targets(q, scope, ids, true);
  checkClose(rows);
  const events = await sign(scoped(q, scope), q, scope, signer, rows, { action: 'close', meaning: 'closed', statusAfter: EXCEPTION_STATUS.closed, comment });
  return { result: { closed: rows.length }, events };
}

/** A signed note: any state, nothing else changes. */
export async function comment(q: Queryable, scope: Scope, signer: Signer, id: number, text: string, meaning: 'reviewed' | 'approved') {
  const rows = await targets(q, scope, [id], true);
  await sign(scoped(q, scope), q, scope, signer, rows, { action: 'comment', meaning, statusAfter: rows[0].status, comment: text });
  return { result: { id }, events: [] as ExceptionEvent[] };
}
