import type { SampleMode } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import type { ExceptionEvent } from '../platform/events.js';
import { plan, type Existing, type Rule, type Run } from './segments.js';
import { resolveRecipients, writeResolution } from './recipients.js';
import { customerLocale, renderAlarm, type MailFacts } from './templates.js';
import { recipientLocale, renderAlarmSms } from './texts.js';

/**
 * The exception records and their notices, whoever is judged: one sensor's readings
 * (evaluator.ts) or a carrier's value (carrier.ts). Both read their runs their own way and
 * write them here, so the same matching, closing and outbox rules hold for both.
 */

export interface SensorCtx {
  id: number;
  customer_id: number;
  gateway_id: number;
  dev_no: string;
  carrier_id: number | null;
  carrier_name: string | null;
  alarm_on: boolean | null;
  sample_mode: SampleMode | null;
  temp_min: number | null;
  temp_max: number | null;
  hum_min: number | null;
  hum_max: number | null;
  /** Hysteresis margins and alarm delay (migration 0034); null without a carrier. */
  temp_margin: number | null;
  hum_margin: number | null;
  alarm_delay_s: number | null;
  /** The carrier is bound by an invalid rule (excluded.ts boundByRules): its evaluation filters excluded readings. */
  excl_rules?: boolean;
  customer_name: string;
  customer_status: number;
  time_zone: string;
  notify_email: boolean;
}

export type Opened = { id: number; rule: Rule; run: Run };

export interface ExRow {
  id: number;
  start_ts: Date;
  last_ts: Date | null;
  end_ts: Date | null;
  ongoing: boolean;
  first_value: number | null;
  peak_value: number | null;
}

export interface EvalOutcome {
  /** Exceptions opened, changed or closed: told to the bus after commit. */
  events: ExceptionEvent[];
  /** Notice rows written (the notifier is woken when > 0). */
  notices: number;
  /** Exceptions opened by this evaluation (for the alarm latency of /metrics). */
  opened: number;
  /** False when the queue row was widened meanwhile and stays for another run. */
  dequeued: boolean;
}

export const ms = (d: Date | string | number) => new Date(d).getTime();
export const iso = (t: number) => new Date(t);
const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.fround(a) === Math.fround(b));

/** Whose exceptions these are: one sensor's, or (sensorId null) its carrier's value. */
export interface Target {
  sensorId: number | null;
  gatewayId: number | null;
  /** The first clear value of the rule's field after t, if any: where an orphaned ongoing exception ends. */
  endAfter(rule: Rule, t: number): Promise<number | null>;
}

/**
 * Ongoing data exceptions that belong to the other way of judging this carrier (its mode
 * changed, or a sensor joined or left it): they end where this window begins, so that only
 * one judgement holds. `carrierId` closes the carrier's own; `sensorId` the sensor's.
 */
export async function closeOngoing(q: Queryable, ctx: SensorCtx, of: { carrierId: number } | { sensorId: number }, at: number, out: EvalOutcome) {
  const rows = await q.query<{ id: number; category: string; start_ts: Date }>(
    'carrierId' in of
      ? `UPDATE exception_record SET ongoing = false, end_ts = greatest($2, start_ts), duration_s = round(extract(epoch FROM greatest($2, start_ts) - start_ts))
          WHERE carrier_id = $1 AND sensor_id IS NULL AND type = 'data' AND ongoing RETURNING id, category, start_ts`
      : `UPDATE exception_record SET ongoing = false, end_ts = greatest($2, start_ts), duration_s = round(extract(epoch FROM greatest($2, start_ts) - start_ts))
          WHERE sensor_id = $1 AND type = 'data' AND ongoing RETURNING id, category, start_ts`,
    ['carrierId' in of ? of.carrierId : of.sensorId, iso(at)],
  );
  for (const r of rows)
    out.events.push({ customerId: ctx.customer_id, exceptionId: r.id, carrierId: ctx.carrier_id, sensorId: 'carrierId' in of ? null : of.sensorId, category: r.category, ongoing: false });
}

/** Writes the plan: close orphaned ongoing exceptions first (one ongoing per category), then each run in time order. */
export async function apply(q: Queryable, ctx: SensorCtx, target: Target, rule: Rule, runs: Run[], rows: ExRow[], out: EvalOutcome, opened: Opened[]) {
  const existing: Existing[] = rows.map((r) => ({ id: r.id, start: ms(r.start_ts), last: ms(r.last_ts ?? r.start_ts), ongoing: r.ongoing }));
  const p = plan(runs, existing);
  const event = (id: number, ongoing: boolean) =>
    out.events.push({ customerId: ctx.customer_id, exceptionId: id, carrierId: ctx.carrier_id, sensorId: target.sensorId, category: rule.category, ongoing });

  for (const e of p.close) {
    // Its readings no longer make an exception (the zone changed, the alarm was off while they
    // came back, or back-filled readings show it lasted less than the delay): it ends at the
    // first clear reading after them.
    const endTs = (await target.endAfter(rule, e.last)) ?? e.last;
    await q.query('UPDATE exception_record SET ongoing = false, end_ts = $2, duration_s = $3 WHERE id = $1', [e.id, iso(endTs), Math.round((endTs - e.start) / 1000)]);
    event(e.id, false);
  }

  for (const [i, run] of runs.entries()) {
    const ongoing = run.end === null;
    const duration = run.end === null ? null : Math.round((run.end - run.start) / 1000);
    const id = p.identity.get(i);
    if (id !== undefined) {
      const cur = rows.find((r) => r.id === id)!;
      const unchanged =
        ms(cur.start_ts) === run.start && cur.last_ts !== null && ms(cur.last_ts) === run.last && cur.ongoing === ongoing &&
        (cur.end_ts === null ? run.end === null : ms(cur.end_ts) === run.end) && same(cur.first_value, run.first) && same(cur.peak_value, run.peak);
      if (unchanged) continue;
      await q.query(
        `UPDATE exception_record SET start_ts = $2, last_ts = $3, end_ts = $4, ongoing = $5, duration_s = $6, first_value = $7, peak_value = $8 WHERE id = $1`,
        [id, iso(run.start), iso(run.last), run.end === null ? null : iso(run.end), ongoing, duration, run.first, run.peak],
      );
      event(id, ongoing);
    } else {
      const [ins] = await q.query<{ id: number }>(
        `INSERT INTO exception_record (customer_id, carrier_id, sensor_id, gateway_id, type, category, status, ongoing,
                                       start_ts, last_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
         VALUES ($1, $2, $3, $4, 'data', $5, 0, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [ctx.customer_id, ctx.carrier_id, target.sensorId, target.gatewayId, rule.category, ongoing, iso(run.start), iso(run.last),
          run.end === null ? null : iso(run.end), duration, run.first, run.peak, rule.limitMin, rule.limitMax],
      );
      event(ins.id, ongoing);
      opened.push({ id: ins.id, rule, run });
    }
  }
}

/**
 * The outbox: the notices of new exceptions in the customer's language, written in the
 * evaluation's transaction so an exception never exists without its notices (and never gets
 * them twice). Who is told and how is the carrier's trigger's (recipients.ts); a carrier without
 * one tells its contacts by e-mail. An exception told to nobody gets a skipped row saying why.
 */
export async function writeNotices(q: Queryable, ctx: SensorCtx, devNo: string, opened: Opened[]): Promise<number> {
  if (ctx.carrier_id === null || !opened.length) return 0;
  const resolution = await resolveRecipients(
    q,
    opened.map(({ id, rule }) => ({ exceptionId: id, customerId: ctx.customer_id, category: rule.category, carrierIds: [ctx.carrier_id!] })),
  );
  const locale = await customerLocale(q, ctx.customer_id);
  const facts = new Map<number, MailFacts>(
    opened.map(({ id, rule, run }) => [
      id,
      {
        customer: ctx.customer_name, carrier: ctx.carrier_name ?? '', devNo, category: rule.category, field: rule.field,
        first: run.first, peak: run.peak, limitMin: rule.limitMin, limitMax: rule.limitMax, start: run.start, end: run.end, tz: ctx.time_zone,
      },
    ]),
  );
  return writeResolution(q, resolution, (t) => {
    const f = facts.get(t.exceptionId)!;
    const lang = recipientLocale(t.locale, locale);
    // SMS and voice carry the short text (alarm/texts.ts); a mail the full one.
    return t.channel === 'email' ? renderAlarm(f, lang) : { subject: '', content: renderAlarmSms(f, lang) };
  });
}
