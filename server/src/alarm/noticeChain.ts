import type { Locale } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import { peopleSql, resolveRecipients, writeResolution, type Subject } from './recipients.js';
import { customerLocales, renderAlarm, type MailFacts } from './templates.js';
import { recipientLocale, renderAlarmSms, renderFollowUp } from './texts.js';
import { localTime } from './trigger.js';
import type { DataCategory, Field } from './segments.js';

/*
 * The notice chain of an exception (docs/alarms.md "Triggers", job alarm-notice): after the
 * first notice, while the exception is ongoing and not acknowledged (status pending: no signed
 * handling step), the trigger's recipients are told again every repeat interval up to the repeat
 * times, again at each of its time points, and, not acknowledged within its escalation time, the
 * contacts of the next alarm level are told; with notification type openEnd its end is told too.
 * The acknowledgement, the end, the alarm switched off or the trigger unbound close the chain.
 *
 * Set-based: one UPDATE picks every chain that has a step due and advances it (FOR UPDATE SKIP
 * LOCKED, so replicas never take the same one), then one statement resolves the recipients and
 * one writes the notices, however many exceptions there are.
 */

export type ChainAction = 'repeat' | 'remind' | 'escalate' | 'end' | 'close';

interface Step {
  id: number;
  customer_id: number;
  carrier_id: number;
  category: string;
  action: ChainAction;
  level: number;
  repeats: number;
  escalate_after_min: number;
  sensor_id: number | null;
  dev_no: string | null;
  carrier_name: string;
  customer_name: string;
  time_zone: string;
  start_ts: Date;
  end_ts: Date | null;
  first_value: number | null;
  peak_value: number | null;
  limit_min: number | null;
  limit_max: number | null;
}

/** A first notice of an exception in one channel, with the language of the contact it went to. */
interface FirstNotice {
  exception_id: number;
  channel: string;
  subject: string;
  content: string;
  locale: string | null;
}

const mins = (col: string) => `${col} * interval '1 minute'`;
/** A time point of the trigger passed since the last notice (in the customer's zone, today or yesterday). */
const timePointPassed = `EXISTS (SELECT 1 FROM unnest(d.time_points) AS tp(m), (VALUES (0), (1)) AS back(days)
    WHERE (date_trunc('day', ${localTime('$1::timestamptz', 'd.time_zone')}) - back.days * interval '1 day' + ${mins('tp.m')})
          BETWEEN ${localTime('d.notified_at', 'd.time_zone')} + interval '1 second' AND ${localTime('$1::timestamptz', 'd.time_zone')})`;

const STEP = `
  WITH d AS (
    SELECT e.id, e.customer_id, e.carrier_id, e.category, e.ongoing, e.status, e.notice_level, e.notice_repeats, e.notified_at, e.level_since,
           t.id AS tid, t.repeat_times, t.repeat_interval_min, t.escalate_after_min, t.notice_type, t.time_points, cu.time_zone,
           k.alarm_on, coalesce(k.paused_until > $1, false) AS paused, k.trigger_id
      FROM exception_record e
      JOIN carrier k ON k.id = e.carrier_id
      JOIN customer cu ON cu.id = e.customer_id
      LEFT JOIN alarm_trigger t ON t.id = k.trigger_id
     WHERE e.chain_open
       -- Only chains that may have a step now (a superset of the CASE below): the rest are not
       -- locked, so a pass over thousands of chains waiting for their next repeat writes nothing.
       AND (t.id IS NULL OR NOT k.alarm_on OR NOT e.ongoing OR e.status <> 0
            OR (e.notice_repeats < t.repeat_times AND $1 >= e.notified_at + ${mins('t.repeat_interval_min')})
            OR (t.escalate_after_min > 0 AND $1 >= e.level_since + ${mins('t.escalate_after_min')})
            OR cardinality(t.time_points) > 0
            -- Spent without escalation: closes. With escalation it closes when the escalation is
            -- due and no level is left (the clause above), so a quiet pass locks none of them.
            OR (e.notice_repeats >= t.repeat_times AND t.notice_type <> 'openEnd' AND t.escalate_after_min = 0))
     ORDER BY e.notified_at
     LIMIT $2
       FOR UPDATE OF e SKIP LOCKED
  ), p AS (SELECT d.id AS x, d.carrier_id, d.customer_id, d.tid FROM d
            -- The next level is looked for only where an escalation is due (people are the costly part).
            WHERE d.tid IS NOT NULL AND d.escalate_after_min > 0 AND $1 >= d.level_since + ${mins('d.escalate_after_min')}),
  nl AS (SELECT pe.x, min(pe.alarm_level) FILTER (WHERE pe.alarm_level > d.notice_level) AS next FROM (${peopleSql('p')}) pe JOIN d ON d.id = pe.x GROUP BY pe.x),
  s AS (
    SELECT d.id, nl.next,
      CASE
        WHEN d.tid IS NULL OR NOT d.alarm_on THEN 'close'
        WHEN NOT d.ongoing THEN CASE WHEN d.notice_type = 'openEnd' THEN 'end' ELSE 'close' END
        WHEN d.status <> 0 THEN CASE WHEN d.notice_type = 'openEnd' THEN 'wait' ELSE 'close' END
        WHEN d.paused THEN 'wait'
        WHEN d.escalate_after_min > 0 AND nl.next IS NOT NULL AND $1 >= d.level_since + ${mins('d.escalate_after_min')} THEN 'escalate'
        WHEN d.notice_repeats < d.repeat_times AND $1 >= d.notified_at + ${mins('d.repeat_interval_min')} THEN 'repeat'
        WHEN ${timePointPassed} THEN 'remind'
        WHEN d.notice_repeats >= d.repeat_times AND cardinality(d.time_points) = 0 AND d.notice_type <> 'openEnd'
             AND (d.escalate_after_min = 0 OR (nl.next IS NULL AND $1 >= d.level_since + ${mins('d.escalate_after_min')})) THEN 'close'
        ELSE 'wait' END AS action
      FROM d LEFT JOIN nl ON nl.x = d.id
  ), moved AS (
    UPDATE exception_record e SET
      chain_open = s.action NOT IN ('close', 'end'),
      notice_level = CASE WHEN s.action = 'escalate' THEN s.next ELSE e.notice_level END,
      level_since = CASE WHEN s.action = 'escalate' THEN $1 ELSE e.level_since END,
      notice_repeats = e.notice_repeats + CASE WHEN s.action = 'repeat' THEN 1 ELSE 0 END,
      notified_at = CASE WHEN s.action IN ('repeat', 'remind', 'escalate', 'end') THEN $1 ELSE e.notified_at END
      FROM s WHERE e.id = s.id AND s.action <> 'wait'
    RETURNING e.*, s.action
  )
  SELECT m.id, m.customer_id, m.carrier_id, m.category, m.action, m.notice_level AS level, m.notice_repeats AS repeats, d.escalate_after_min,
         m.sensor_id, sn.dev_no, k.name AS carrier_name, cu.name AS customer_name, cu.time_zone, m.start_ts, m.end_ts,
         m.first_value, m.peak_value, m.limit_min, m.limit_max
    FROM moved m JOIN d ON d.id = m.id JOIN carrier k ON k.id = m.carrier_id JOIN customer cu ON cu.id = m.customer_id
    LEFT JOIN sensor sn ON sn.id = m.sensor_id
   WHERE m.action <> 'close'`;

/*
 * The first notices of the exceptions stepped, per channel (written together, so one created_at),
 * each with its contact's language: a follow-up of a connection, power or retention exception
 * repeats the first notice written in the recipient's own language and channel, not whichever
 * went first (an SMS-only trigger has no first mail to repeat).
 */
const FIRST_NOTICES = `
  SELECT n.exception_id, n.channel, n.subject, n.content, ct.locale FROM notice_log n
    LEFT JOIN LATERAL (SELECT c.locale FROM contact c
                        WHERE c.customer_id = n.customer_id AND CASE WHEN n.channel = 'email' THEN c.email ELSE c.phone END = n.recipient
                        ORDER BY c.id LIMIT 1) ct ON true
   WHERE n.exception_id = ANY($1::bigint[]) AND n.status <> 3
     AND n.created_at = (SELECT min(f.created_at) FROM notice_log f WHERE f.exception_id = n.exception_id AND f.channel = n.channel AND f.status <> 3)
   ORDER BY n.id`;

const DATA = new Set(['temp_high', 'temp_low', 'hum_high', 'hum_low']);

/** The columns of an exception a data alarm's text is written from (its step here, its pause's end in pause.ts). */
export type FactsRow = Pick<Step, 'customer_name' | 'carrier_name' | 'dev_no' | 'category' | 'first_value' | 'peak_value' | 'limit_min' | 'limit_max' | 'start_ts' | 'end_ts' | 'time_zone'>;

export const factsOf = (r: FactsRow): MailFacts => ({
  customer: r.customer_name, carrier: r.carrier_name, devNo: r.dev_no ?? '', category: r.category as DataCategory, field: r.category.slice(0, r.category.indexOf('_')) as Field,
  first: Number(r.first_value), peak: Number(r.peak_value), limitMin: Number(r.limit_min), limitMax: Number(r.limit_max),
  start: r.start_ts.getTime(), end: r.end_ts ? r.end_ts.getTime() : null, tz: r.time_zone,
});

/**
 * The text of one step for one recipient, in the recipient's language: a data exception's mail
 * and SMS are written again from its facts; any other's is its first notice in that channel and
 * language (else the first there is) with the step's line before it: an SMS or a call repeats the
 * first text, a mail the first mail.
 */
function render(r: Step, channel: string, lang: Locale, first: (lang: Locale, channel: string) => { subject: string; content: string }) {
  const follow = r.action === 'escalate' ? { escalationMinutes: r.escalate_after_min } : { repeat: Math.max(r.repeats, 1) };
  if (r.action === 'end' && DATA.has(r.category)) return channel === 'email' ? renderAlarm(factsOf(r), lang) : { subject: '', content: renderAlarmSms(factsOf(r), lang) };
  if (channel !== 'email' && DATA.has(r.category)) return { subject: '', content: renderAlarmSms(factsOf(r), lang, follow) };
  if (channel !== 'email') {
    const line = first(lang, channel).content || first(lang, 'email').subject;
    return { subject: '', content: r.action === 'end' ? line : renderFollowUp({ subject: line, content: '' }, lang, follow).subject };
  }
  const mail = DATA.has(r.category) ? renderAlarm(factsOf(r), lang) : first(lang, 'email');
  return r.action === 'end' ? mail : renderFollowUp(mail, lang, follow);
}

export interface ChainPass {
  steps: number;
  notices: number;
}

/** One pass of the chain job over at most `limit` open chains. Call inside db.tx. */
export async function advanceChains(q: Queryable, now = Date.now(), limit = 50_000): Promise<ChainPass> {
  const steps = await q.query<Step>(STEP, [new Date(now), limit]);
  if (!steps.length) return { steps: 0, notices: 0 };
  const subjects: Subject[] = steps.map((r) => ({
    exceptionId: Number(r.id), customerId: r.customer_id, category: r.category, carrierIds: [r.carrier_id], level: r.level, exact: r.action === 'escalate',
  }));
  const resolution = await resolveRecipients(q, subjects);
  // A step that reaches nobody now (outside the hours with no off-hours channel, a switch off) is not logged again: the first notice said why.
  resolution.skipped = [];
  const byId = new Map(steps.map((r) => [Number(r.id), r]));
  const locales = await customerLocales(q, [...new Set(steps.map((r) => r.customer_id))]);
  const firsts = new Map<number, FirstNotice[]>();
  for (const m of await q.query<FirstNotice>(FIRST_NOTICES, [steps.filter((r) => !DATA.has(r.category)).map((r) => r.id)]))
    firsts.set(Number(m.exception_id), [...(firsts.get(Number(m.exception_id)) ?? []), m]);
  const notices = await writeResolution(
    q,
    resolution,
    (t) => {
      const r = byId.get(t.exceptionId)!;
      const customer = locales.get(r.customer_id)!;
      const first = (lang: Locale, channel: string) => {
        const all = (firsts.get(Number(r.id)) ?? []).filter((x) => x.channel === channel);
        const m = all.find((x) => recipientLocale(x.locale, customer) === lang) ?? all[0];
        return { subject: m?.subject ?? '', content: m?.content ?? '' };
      };
      return render(r, t.channel, recipientLocale(t.locale, customer), first);
    },
    { startChain: false },
  );
  return { steps: steps.length, notices };
}
