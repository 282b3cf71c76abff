import { NOTICE_STATUS, type NoticeChannel, type SkipReason } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import { copyText } from '../platform/db/copy.js';
import { addressSql, channelAllowedSql, inHoursSql } from './trigger.js';

/*
 * Who is told of an exception, on which channel (docs/alarms.md "Triggers"). The recipient side
 * of the outbox: the evaluator (exceptions.ts writeNotices), the device exceptions
 * (deviceNotices.ts) and the notice-chain job (noticeChain.ts) all resolve people here; the
 * notifier (notifier.ts) only sends the rows written.
 *
 * Precedence: the customer's notify switches are the master (notify_email for e-mail, notify_sms
 * for SMS and voice: off means off for the whole customer); within them the carrier's trigger
 * decides (its categories, hours, channels, recipients and levels); a carrier without a trigger
 * tells its own contacts by e-mail, as before triggers. A carrier's own contacts are always among
 * its recipients; the trigger adds its contacts, every contact of its groups and of its levels.
 */

/**
 * The contacts of each point of relation `p` (columns x, carrier_id, customer_id, tid: exception,
 * carrier, customer, trigger or null): (x, carrier_id, contact_id, alarm_level, email, phone, locale).
 * Only contacts of the point's customer: a trigger never reaches another customer's people.
 */
export const peopleSql = (p: string) => `
  SELECT p.x, p.carrier_id, ct.id AS contact_id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM ${p} p JOIN carrier_contact cc ON cc.carrier_id = p.carrier_id JOIN contact ct ON ct.id = cc.contact_id AND ct.customer_id = p.customer_id
  UNION
  SELECT p.x, p.carrier_id, ct.id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM ${p} p JOIN alarm_trigger_contact tc ON tc.trigger_id = p.tid JOIN contact ct ON ct.id = tc.contact_id AND ct.customer_id = p.customer_id
  UNION
  SELECT p.x, p.carrier_id, ct.id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM ${p} p JOIN alarm_trigger t ON t.id = p.tid
    JOIN contact ct ON ct.customer_id = p.customer_id AND ((ct.group_name <> '' AND ct.group_name = ANY(t.group_names)) OR ct.alarm_level = ANY(t.levels))`;

/**
 * The rule of each trigger for its customer at time `now` (relation d: tid, customer_id; tid null:
 * a carrier without a trigger): whether `now` is within its hours, the channels in force then (the
 * customer's master switches applied) and the levels told then (null: all). Once per pair, not
 * once per point: the hours are the costly part, and ten thousand points share a few triggers.
 */
const rulesSql = (d: string, now: string) => `
  SELECT d.tid, d.customer_id, t.categories, t.id IS NULL OR h.in_hours AS in_hours,
         coalesce(t.escalate_after_min, 0) AS escalate_after_min,
         ARRAY(SELECT ch FROM unnest(c.raw) AS ch WHERE ${channelAllowedSql('ch', 'cu')}) AS channels,
         CASE WHEN t.id IS NULL OR cardinality(t.off_levels) = 0 OR h.in_hours THEN NULL ELSE t.off_levels END AS only_levels,
         cardinality(c.raw) AS raw_channels
    FROM ${d} d JOIN customer cu ON cu.id = d.customer_id LEFT JOIN alarm_trigger t ON t.id = d.tid
   CROSS JOIN LATERAL (SELECT t.id IS NOT NULL AND ${inHoursSql('t', now, 'cu.time_zone')} AS in_hours) h
   CROSS JOIN LATERAL (SELECT CASE WHEN t.id IS NULL THEN ARRAY['email'] WHEN h.in_hours THEN t.channels ELSE t.off_channels END AS raw) c`;

/**
 * Each point (relation i: x, carrier_id, category) with its rule now: whether the alarm is paused
 * and whether its trigger covers the category. Carriers with their alarm off are left out.
 */
const POINTS = `
  WITH i AS (SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[]) AS i(x, carrier_id, category)),
  k AS (SELECT i.x, i.carrier_id, i.category, k.customer_id, k.trigger_id AS tid, coalesce(k.paused_until > now(), false) AS paused
          FROM i JOIN carrier k ON k.id = i.carrier_id AND k.alarm_on),
  r AS (${rulesSql('(SELECT DISTINCT tid, customer_id FROM k)', 'now()')})
  SELECT k.x, k.carrier_id, k.customer_id, k.tid, k.paused, k.tid IS NULL OR k.category = ANY(r.categories) AS covered,
         r.in_hours, r.escalate_after_min, r.channels, r.only_levels, r.raw_channels
    FROM k JOIN r ON r.customer_id = k.customer_id AND coalesce(r.tid, 0) = coalesce(k.tid, 0)`;

/**
 * The people of these carriers (their own contacts, via 'c') and triggers (their contacts, and
 * every contact of their groups and levels, via 't'), each once per carrier or trigger rather than
 * once per point; the points are given theirs in resolveRecipients, only of the point's customer.
 */
const PEOPLE = `
  SELECT 'c' AS via, cc.carrier_id AS key, ct.id, ct.customer_id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM carrier_contact cc JOIN contact ct ON ct.id = cc.contact_id WHERE cc.carrier_id = ANY($1::int[])
  UNION ALL
  SELECT 't', tc.trigger_id, ct.id, ct.customer_id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM alarm_trigger_contact tc JOIN contact ct ON ct.id = tc.contact_id WHERE tc.trigger_id = ANY($2::int[])
  UNION ALL
  SELECT 't', t.id, ct.id, ct.customer_id, ct.alarm_level, ct.email, ct.phone, ct.locale
    FROM alarm_trigger t JOIN contact ct ON ct.customer_id = t.customer_id
     AND ((ct.group_name <> '' AND ct.group_name = ANY(t.group_names)) OR ct.alarm_level = ANY(t.levels))
   WHERE t.id = ANY($2::int[])`;

/** Why an exception went to nobody: the notice_log row that says so (status skipped, result = this key; the contract's SKIP_REASONS, which the notice log page names). */
export type { SkipReason };
/** notice_log.status of a notice that was not sent on purpose. */
export const NOTICE_SKIPPED = NOTICE_STATUS.skipped;

export interface NoticeTarget {
  exceptionId: number;
  customerId: number;
  channel: NoticeChannel;
  recipient: string;
  /** The contact's own language (migration 0042), null for the customer's. */
  locale: string | null;
}

export interface Resolution {
  targets: NoticeTarget[];
  /** Exceptions told to nobody, and why. */
  skipped: { exceptionId: number; customerId: number; reason: SkipReason }[];
  /** The level told first (3: every level) of each exception told, for its notice chain. */
  levels: Map<number, number>;
  /** Exceptions opened while one of their points was paused (marked during_pause). */
  paused: number[];
}

export interface Subject {
  exceptionId: number;
  customerId: number;
  category: string;
  carrierIds: readonly number[];
  /** A step of the notice chain (noticeChain.ts): the level told so far (everyone up to it), or with `exact` only that level (an escalation). */
  level?: number;
  exact?: boolean;
}

interface PointRow {
  x: string | number;
  carrier_id: number;
  customer_id: number;
  tid: number | null;
  paused: boolean;
  covered: boolean;
  escalate_after_min: number;
  /** Channels in force before the customer's switches: more than `channels` when a switch is off. */
  raw_channels: number;
  channels: NoticeChannel[];
  only_levels: number[] | null;
}

interface PersonRow {
  via: 'c' | 't';
  key: number;
  id: number;
  customer_id: number;
  alarm_level: number;
  email: string | null;
  phone: string | null;
  locale: string | null;
}

interface Point extends PointRow {
  level: number;
  people: { channel: NoticeChannel; address: string; locale: string | null }[];
}

/**
 * Two statements for any number of exceptions (a presence scan opens thousands at once, the
 * notice chain steps ten thousand): each exception's points with their rule now, then the people
 * of their carriers and triggers; here each point gets the people told at its first level (the
 * lowest level among its recipients when the trigger escalates, else every level) on each
 * channel, or with a subject's level, everyone up to it (only that level when `exact`).
 */
export async function resolveRecipients(q: Queryable, subjects: readonly Subject[]): Promise<Resolution> {
  const out: Resolution = { targets: [], skipped: [], levels: new Map(), paused: [] };
  const bySubject = new Map(subjects.map((s) => [s.exceptionId, s]));
  const pairs = subjects.flatMap((s) => s.carrierIds.map((c) => [s.exceptionId, c, s.category] as const));
  const byX = new Map<number, Point[]>();
  const rows = pairs.length ? await q.query<PointRow>(POINTS, [pairs.map((p) => p[0]), pairs.map((p) => p[1]), pairs.map((p) => p[2])]) : [];
  if (rows.length) {
    const people = await q.query<PersonRow>(PEOPLE, [[...new Set(rows.map((r) => r.carrier_id))], [...new Set(rows.flatMap((r) => (r.tid === null ? [] : [r.tid])))]]);
    const ofCarrier = groupBy(people.filter((p) => p.via === 'c'), (p) => p.key);
    const ofTrigger = groupBy(people.filter((p) => p.via === 't'), (p) => p.key);
    for (const r of rows) {
      const s = bySubject.get(Number(r.x))!;
      const point = pointPeople(r, [...(ofCarrier.get(r.carrier_id) ?? []), ...(r.tid === null ? [] : (ofTrigger.get(r.tid) ?? []))], s);
      byX.set(Number(r.x), [...(byX.get(Number(r.x)) ?? []), point]);
    }
  }
  for (const s of subjects) {
    const points = byX.get(s.exceptionId) ?? [];
    if (points.some((p) => p.paused)) out.paused.push(s.exceptionId);
    const live = points.filter((p) => !p.paused && p.covered);
    const seen = new Set<string>();
    for (const p of live)
      for (const to of p.people) {
        const key = `${to.channel}\n${to.address}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.targets.push({ exceptionId: s.exceptionId, customerId: s.customerId, channel: to.channel, recipient: to.address, locale: to.locale });
      }
    if (seen.size) {
      out.levels.set(s.exceptionId, Math.min(...live.filter((p) => p.people.length).map((p) => Number(p.level))));
      continue;
    }
    // Nobody: say why, the most telling reason first. No point at all (alarm off, no carrier):
    // nobody was meant to be told, nothing to log (as before triggers).
    if (!points.length) continue;
    const silent = live.every((p) => p.channels.length === 0);
    const reason: SkipReason = !live.length
      ? points.every((p) => p.paused) ? 'paused' : 'notCovered'
      : silent && live.some((p) => p.raw_channels > 0) ? 'notifyOff'
        : silent ? 'outsideHours'
          : 'noRecipient';
    out.skipped.push({ exceptionId: s.exceptionId, customerId: s.customerId, reason });
  }
  return out;
}

const groupBy = <T, K>(items: readonly T[], key: (t: T) => K) => {
  const m = new Map<K, T[]>();
  for (const t of items) m.set(key(t), [...(m.get(key(t)) ?? []), t]);
  return m;
};

/** A point's people at its level on each of its channels, each address once. */
function pointPeople(r: PointRow, candidates: readonly PersonRow[], s: Subject): Point {
  const seen = new Set<number>();
  // Only the point's customer's contacts (a trigger never reaches another customer's people), once each, of the levels told now.
  const people = candidates.filter((c) => c.customer_id === r.customer_id && !seen.has(c.id) && seen.add(c.id) && (!r.only_levels || r.only_levels.includes(c.alarm_level)));
  const level = s.level ?? (r.escalate_after_min > 0 ? (people.length ? Math.min(...people.map((c) => c.alarm_level)) : 1) : 3);
  const told = new Map<string, Point['people'][number]>();
  for (const channel of r.channels)
    for (const c of people) {
      const address = (channel === 'email' ? c.email : c.phone) ?? '';
      if (address && (c.alarm_level === level || (!s.exact && c.alarm_level < level)) && !told.has(`${channel}\n${address}`))
        told.set(`${channel}\n${address}`, { channel, address, locale: c.locale });
    }
  return { ...r, level, people: [...told.values()] };
}

/** The text of one notice: its exception's, on its channel (a mail, or the short text of an SMS or a call), in the recipient's language. */
export type RenderNotice = (t: Pick<NoticeTarget, 'exceptionId' | 'channel' | 'locale'>) => { subject: string; content: string };

/**
 * Writes what a resolution decided, in the transaction that opened the exceptions: one pending
 * notice per target with its text, one skipped row per exception told to nobody (its text as a
 * mail would have had it, the reason in `result`), the pause mark, and the start of each notice
 * chain (level told, time). Returns the pending notices written.
 */
export async function writeResolution(q: Queryable, r: Resolution, render: RenderNotice, opts: { type?: string; startChain?: boolean } = {}): Promise<number> {
  const rows = [
    ...r.targets.map((t) => ({ ...t, status: 0, result: '', ...render(t) })),
    ...r.skipped.map((s) => ({
      exceptionId: s.exceptionId, customerId: s.customerId, channel: 'email', recipient: '', status: NOTICE_SKIPPED, result: s.reason,
      ...render({ exceptionId: s.exceptionId, channel: 'email', locale: null }),
    })),
  ];
  // COPY: the notice chain writes ten thousand notices a pass, and text rows are the cheapest way in.
  if (rows.length)
    await q.copyIn(
      'notice_log (customer_id, exception_id, type, channel, recipient, subject, content, status, result)',
      copyText(rows.map((x) => [x.customerId, x.exceptionId, opts.type ?? 'alarm', x.channel, x.recipient, x.subject, x.content, x.status, x.result])),
    );
  const told = [...r.levels.entries()];
  if (opts.startChain !== false && (told.length || r.paused.length))
    await q.query(
      `UPDATE exception_record e SET notice_level = coalesce(v.level, e.notice_level),
              notified_at = CASE WHEN v.level IS NULL THEN e.notified_at ELSE now() END,
              level_since = CASE WHEN v.level IS NULL THEN e.level_since ELSE now() END,
              chain_open = v.level IS NOT NULL AND coalesce((
                SELECT ((t.repeat_times > 0 OR t.escalate_after_min > 0 OR cardinality(t.time_points) > 0) AND e.ongoing) OR t.notice_type = 'openEnd'
                  FROM carrier k JOIN alarm_trigger t ON t.id = k.trigger_id WHERE k.id = e.carrier_id), false),
              during_pause = e.during_pause OR v.paused
         FROM (SELECT coalesce(a.x, b.x) AS x, a.l AS level, b.x IS NOT NULL AS paused
                 FROM unnest($1::bigint[], $2::smallint[]) AS a(x, l) FULL JOIN unnest($3::bigint[]) AS b(x) ON b.x = a.x) v
        WHERE e.id = v.x`,
      [told.map(([x]) => x), told.map(([, l]) => l), r.paused],
    );
  return r.targets.length;
}

/**
 * Of these carriers, those whose alarm is on but would reach nobody: no recipient with an
 * address on any channel the trigger uses within its hours (without a trigger: no contact with an
 * e-mail address), the customer's master switches applied. The card, the carrier page and the
 * home count show them (docs/alarms.md "An alarm that reaches nobody"). Callers pass ids their
 * scoped query found.
 */
export async function unreachable(q: Queryable, carrierIds: readonly number[]): Promise<Set<number>> {
  if (!carrierIds.length) return new Set();
  const rows = await q.query<{ id: number }>(
    `WITH p AS (SELECT k.id AS x, k.id AS carrier_id, k.customer_id, k.trigger_id AS tid FROM carrier k WHERE k.id = ANY($1::int[]) AND k.alarm_on),
          reached AS (
            SELECT DISTINCT pe.x FROM (${peopleSql('p')}) pe JOIN p ON p.x = pe.x JOIN customer cu ON cu.id = p.customer_id
              LEFT JOIN alarm_trigger t ON t.id = p.tid
             CROSS JOIN unnest(coalesce(t.channels, ARRAY['email'])) AS ch
             WHERE ${channelAllowedSql('ch', 'cu')} AND ${addressSql('ch', 'pe')} <> '')
     SELECT p.x AS id FROM p WHERE p.x NOT IN (SELECT x FROM reached)`,
    [[...carrierIds]],
  );
  return new Set(rows.map((r) => r.id));
}
