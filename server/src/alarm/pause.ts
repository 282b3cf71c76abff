import type { Queryable } from '../platform/db/client.js';
import { factsOf, type FactsRow } from './noticeChain.js';
import { resolveRecipients, writeResolution } from './recipients.js';
import { customerLocales, renderAlarm } from './templates.js';
import { recipientLocale, renderAlarmSms } from './texts.js';

/**
 * The alarm-resume job's step (docs/jobs.md): every alarm pause whose end has come is ended in
 * one statement, and each carrier's resume is written to the alarm-switch log (operator
 * "system", the pause's reason kept), so the log shows when the pause began and when it ended.
 *
 * A pause silences, it does not hide: a data excursion that began during the pause and is still
 * going on, unacknowledged, when the pause ends is told then, as its first notice (the carrier's
 * trigger decides who and how, as at any other time), and its notice chain starts from there.
 * One that ended during the pause is not told: it is recorded, marked during_pause, and listed
 * under Exceptions; nobody needs waking for a fridge that is back in range.
 *
 * Retry-safe: a carrier resumed once is no longer paused, and an exception with a notice is not
 * told again, so a second run writes nothing twice.
 */
export async function resumeDuePauses(q: Queryable, now = Date.now()): Promise<{ resumed: number; notices: number }> {
  const rows = await q.query<{ carrier_id: number }>(
    `WITH due AS (
       SELECT id, customer_id, name, alarm_on, pause_reason FROM carrier WHERE paused_until <= $1 ORDER BY id FOR UPDATE SKIP LOCKED
     ), ended AS (
       UPDATE carrier k SET paused_until = NULL, pause_reason = '' FROM due WHERE k.id = due.id RETURNING k.id
     )
     INSERT INTO alarm_switch_log (customer_id, carrier_id, carrier_name, alarm_on, operator, reason)
     SELECT due.customer_id, due.id, due.name, due.alarm_on, 'system', left('pause ended: ' || due.pause_reason, 250) FROM due JOIN ended ON ended.id = due.id
     RETURNING carrier_id`,
    [new Date(now)],
  );
  if (!rows.length) return { resumed: 0, notices: 0 };
  return { resumed: rows.length, notices: await tellOngoing(q, rows.map((r) => r.carrier_id)) };
}

interface Ongoing extends FactsRow {
  id: number;
  customer_id: number;
  carrier_id: number;
}

/** The first notices of the resumed carriers' ongoing, unacknowledged data excursions that nobody was told of. */
async function tellOngoing(q: Queryable, carrierIds: number[]): Promise<number> {
  const open = await q.query<Ongoing>(
    `SELECT e.id, e.customer_id, e.carrier_id, e.category, sn.dev_no, k.name AS carrier_name, cu.name AS customer_name, cu.time_zone,
            e.start_ts, e.end_ts, e.first_value, e.peak_value, e.limit_min, e.limit_max
       FROM exception_record e JOIN carrier k ON k.id = e.carrier_id JOIN customer cu ON cu.id = e.customer_id
       LEFT JOIN sensor sn ON sn.id = e.sensor_id
      WHERE e.carrier_id = ANY($1::int[]) AND e.type = 'data' AND e.ongoing AND e.during_pause AND e.status = 0
        AND NOT EXISTS (SELECT 1 FROM notice_log n WHERE n.exception_id = e.id AND n.status <> 3)`,
    [carrierIds],
  );
  if (!open.length) return 0;
  const resolution = await resolveRecipients(
    q,
    open.map((e) => ({ exceptionId: Number(e.id), customerId: e.customer_id, category: e.category, carrierIds: [e.carrier_id] })),
  );
  const byId = new Map(open.map((e) => [Number(e.id), e]));
  const locales = await customerLocales(q, [...new Set(open.map((e) => e.customer_id))]);
  return writeResolution(q, resolution, (t) => {
    const e = byId.get(t.exceptionId)!;
    const lang = recipientLocale(t.locale, locales.get(e.customer_id)!);
    return t.channel === 'email' ? renderAlarm(factsOf(e), lang) : { subject: '', content: renderAlarmSms(factsOf(e), lang) };
  });
}
