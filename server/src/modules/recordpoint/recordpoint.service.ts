import { Code, RECORD_NEAREST_MS, recordHhmm, type RecordDayRow, type RecordDecision, type RecordPointValue, type RecordState } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, paramError, uniqueViolation } from '../../platform/http/errors.js';
import { offsetMinutes } from '../../alarm/excluded.js';
import { carrierValues, valueSensors } from '../history/carrierValues.js';
import { copySignature, signatureImages, type Signer } from '../exception/signing.js';
import { recordCarriers, signsOf, type RecordCarrier, type SignRow } from './recordpoint.repository.js';

/*
 * Collect records (docs/records.md). Computed on read, not by a job: a record time's value is
 * the carrier's value (its sample mode, carrierValues) nearest that time within
 * RECORD_NEAREST_MS, read when the page asks for it. A back-filled reading or a sensor that
 * reports late therefore fills its time as soon as it is stored, and nothing has to run at the
 * right moment for a record to exist. Signing freezes it: the signed row keeps the values as
 * they were signed, and the page shows those for a signed day.
 */

const DAY = 86_400_000;
const failed = (key: string) => new AppError(Code.FAILED, `errors.recordPoint.${key}`);

/** The customer's calendar day of an instant, YYYY-MM-DD. */
export const dayOf = (ms: number, tz: string) => new Date(ms + offsetMinutes(tz) * 60_000).toISOString().slice(0, 10);
/** The instant a record time falls on, on a calendar day of the zone. */
export const instantOf = (day: string, minute: number, tz: string) => Date.parse(`${day}T00:00:00Z`) + minute * 60_000 - offsetMinutes(tz) * 60_000;

/** The calendar days of [start, min(end, now)] in the zone, newest first. */
export function daysOf(start: number, end: number, tz: string, now = Date.now()): string[] {
  const last = dayOf(Math.min(end, now), tz);
  const out: string[] = [];
  for (let d = Date.parse(`${last}T00:00:00Z`), first = Date.parse(`${dayOf(start, tz)}T00:00:00Z`); d >= first; d -= DAY) out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

/** Each record time of the day with the carrier's value nearest it (ties: the earlier reading). */
export async function fill(q: Queryable, c: RecordCarrier, day: string): Promise<RecordPointValue[]> {
  const at = c.minutes.map((m) => instantOf(day, m, c.tz));
  if (!at.length) return [];
  const sensors = (await valueSensors(q, [c.id])).get(c.id) ?? [];
  const points = await carrierValues(q, { ...c, sensors }, at[0] - RECORD_NEAREST_MS, at[at.length - 1] + RECORD_NEAREST_MS);
  return c.minutes.map((m, i) => {
    let best: (typeof points)[number] | undefined;
    for (const p of points) {
      const d = Math.abs(p.ts - at[i]);
      if (d <= RECORD_NEAREST_MS && (!best || d < Math.abs(best.ts - at[i]))) best = p;
    }
    const r2 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 100) / 100);
    return { time: recordHhmm(m), at: at[i], ts: best?.ts ?? null, temp: r2(best?.temp), hum: r2(best?.hum) };
  });
}

/** A day's state: its last decision, the approval being final (spec §4: not approved, approved, rejected). */
function stateOf(signs: SignRow[]): { state: RecordState; last: SignRow | undefined } {
  const approved = signs.find((s) => s.decision === 'approved');
  const last = approved ?? signs[signs.length - 1];
  return { state: last?.decision ?? 'pending', last };
}

export interface RecordPageArgs {
  carrierId?: number;
  start: number;
  end: number;
  state?: RecordState;
  iDisplayStart: number;
  iDisplayLength: number;
}

/** A page of carrier days, newest day first, then by carrier name. */
export async function recordPage(q: Queryable, scope: Scope, a: RecordPageArgs, tz: string, now = Date.now()) {
  const carriers = await recordCarriers(q, scope, a.carrierId);
  const days = daysOf(a.start, a.end, tz, now);
  const signs = await signsOf(q, scope, carriers.map((c) => c.id), days[days.length - 1] ?? '9999-12-31', days[0] ?? '0000-01-01');
  const byKey = new Map<string, SignRow[]>();
  for (const s of signs) byKey.set(`${s.carrierId}:${s.day}`, [...(byKey.get(`${s.carrierId}:${s.day}`) ?? []), s]);
  let pairs = days.flatMap((day) => carriers.filter((c) => c.minutes.length).map((c) => ({ day, c, signs: byKey.get(`${c.id}:${day}`) ?? [] })));
  if (a.state) pairs = pairs.filter((p) => stateOf(p.signs).state === a.state);
  const slice = pairs.slice(a.iDisplayStart, a.iDisplayStart + a.iDisplayLength);
  const images = await signatureImages(q, scope, slice.flatMap((p) => p.signs.map((s) => s.signatureId)));
  const rows: RecordDayRow[] = [];
  for (const { day, c, signs: ss } of slice) {
    const { state, last } = stateOf(ss);
    const lastAt = instantOf(day, c.minutes[c.minutes.length - 1], c.tz);
    rows.push({
      carrierId: c.id,
      carrierName: c.name,
      day,
      points: state === 'approved' && last ? last.points : await fill(q, c, day),
      tempMin: c.tempMin,
      tempMax: c.tempMax,
      humMin: c.humMin,
      humMax: c.humMax,
      state,
      complete: now >= lastAt,
      signedBy: last?.userName ?? null,
      signedAccount: last?.userAccount ?? null,
      signedAt: last?.signedAt ?? null,
      comment: last?.comment ?? null,
      history: ss.map((s) => ({ decision: s.decision, signedBy: s.userName, signedAccount: s.userAccount, signedAt: s.signedAt, comment: s.comment, signature: s.signatureId === null ? null : (images[String(s.signatureId)] ?? null) })),
    });
  }
  return { total: pairs.length, rows, iDisplayStart: a.iDisplayStart, iDisplayLength: a.iDisplayLength, timeZone: tz };
}

/**
 * Whether the day may be signed, judged before the signature is asked for (nothing counted for
 * a wrong carrier or day) and again inside the signing transaction: the carrier is the caller's
 * (404), it has record times, the day's last time has passed, and the day is not approved.
 */
export async function checkSign(q: Queryable, scope: Scope, carrierId: number, day: string, now = Date.now()): Promise<RecordCarrier> {
  const [c] = await recordCarriers(q, scope, carrierId, true);
  if (!c.minutes.length) throw failed('noTimes');
  if (Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw paramError('errors.rule.date', { day: 'errors.rule.date' });
  if (now < instantOf(day, c.minutes[c.minutes.length - 1], c.tz)) throw failed('notYet');
  if ((await signsOf(q, scope, [c.id], day, day)).some((s) => s.decision === 'approved')) throw failed('approved');
  return c;
}

/** Writes the signed decision with the values as signed. */
export async function sign(q: Queryable, scope: Scope, signer: Signer, b: { carrierId: number; day: string; decision: RecordDecision; comment: string }) {
  const c = await checkSign(q, scope, b.carrierId, b.day);
  const points = await fill(q, c, b.day);
  const signatureId = await copySignature(q, scope, signer, c.customerId);
  try {
    await scoped(q, scope)
      .insertInto('record_point_sign')
      .values({
        customer_id: c.customerId,
        carrier_id: c.id,
        carrier_name: c.name,
        day: b.day,
        tz: c.tz,
        decision: b.decision,
        comment: b.comment,
        points: JSON.stringify(points),
        user_id: signer.userId,
        user_account: signer.account,
        user_name: signer.name,
        signature_id: signatureId,
      })
      .execute();
  } catch (err) {
    // Two approvals racing: the second meets the first's unique row.
    if (uniqueViolation(err) !== undefined) throw failed('approved');
    throw err;
  }
  return { carrierId: c.id, day: b.day, state: b.decision };
}
