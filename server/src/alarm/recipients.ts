import { NOTICE_STATUS, type NoticeChannel, type SkipReason } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
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
 * Each point's rule at time `now` (relation i: x, carrier_id, category): its trigger, whether the
 * alarm is paused, whether the trigger covers the category, whether `now` is within its hours,
 * the channels in force then (the customer's master switches applied) and the levels told then
 * (null: all). Carriers with their alarm off are left out.
 */
export const pointsSql = (i: string, now: string) => `
  SELECT i.x, i.carrier_id, k.customer_id, t.id AS tid, k.trigger_id IS NOT NULL AS has_trigger,
         coalesce(k.paused_until > ${now}, false) AS paused,
         (t.id IS NULL OR i.category = ANY(t.categories)) AS covered,
         (t.id IS NULL OR ${inHoursSql('t', now, 'cu.time_zone')}) AS in_hours,
         coalesce(t.escalate_after_min, 0) AS escalate_after_min,
         ARRAY(SELECT ch FROM unnest(CASE WHEN t.id IS NULL THEN ARRAY['email'] WHEN ${inHoursSql('t', now, 'cu.time_zone')} THEN t.channels ELSE t.off_channels END) AS ch
                WHERE ${channelAllowedSql('ch', 'cu')}) AS channels,
         CASE WHEN t.id IS NULL OR cardinality(t.off_levels) = 0 OR ${inHoursSql('t', now, 'cu.time_zone')} THEN NULL ELSE t.off_levels END AS only_levels,
         cardinality(CASE WHEN t.id IS NULL THEN ARRAY['email'] WHEN ${inHoursSql('t', now, 'cu.time_zone')} THEN t.channels ELSE t.off_channels END) AS raw_channels
    FROM ${i} i JOIN carrier k ON k.id = i.carrier_id AND k.alarm_on JOIN customer cu ON cu.id = k.customer_id
    LEFT JOIN alarm_trigger t ON t.id = k.trigger_id`;

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
  x: number;
  customer_id: number;
  paused: boolean;
  covered: boolean;
  in_hours: boolean;
  has_trigger: boolean;
  /** Channels in force before the customer's switches: more than `channels` when a switch is off. */
  raw_channels: number;
  channels: NoticeChannel[];
  level: number;
  people: { channel: NoticeChannel; address: string; locale: string | null }[] | null;
}

/**
 * One statement for any number of exceptions (a presence scan opens thousands at once): each
 * exception's points with their rule now, and the people told at the first level (the lowest
 * level among its recipients when the trigger escalates, else every level) on each channel.
 */
export async function resolveRecipients(q: Queryable, subjects: readonly Subject[]): Promise<Resolution> {
  const out: Resolution = { targets: [], skipped: [], levels: new Map(), paused: [] };
  const pairs = subjects.flatMap((s) => s.carrierIds.map((c) => [s.exceptionId, c, s.category, s.level ?? null, s.exact ?? false] as const));
  const byX = new Map<number, PointRow[]>();
  if (pairs.length) {
    const rows = await q.query<PointRow>(
      `WITH i AS (SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::smallint[], $5::boolean[]) AS i(x, carrier_id, category, level, exact)),
       p AS (${pointsSql('i', 'now()')}),
       people AS (SELECT pe.* FROM (${peopleSql('p')}) pe JOIN p ON p.x = pe.x AND p.carrier_id = pe.carrier_id
                   WHERE p.only_levels IS NULL OR pe.alarm_level = ANY(p.only_levels)),
       lv AS (SELECT p.x, p.carrier_id, i.exact,
                     coalesce(i.level, CASE WHEN p.escalate_after_min > 0 THEN coalesce(min(pe.alarm_level), 1) ELSE 3 END) AS level
                FROM p JOIN i ON i.x = p.x AND i.carrier_id = p.carrier_id LEFT JOIN people pe ON pe.x = p.x AND pe.carrier_id = p.carrier_id
               GROUP BY p.x, p.carrier_id, p.escalate_after_min, i.level, i.exact),
       -- Grouped once for all (a correlated subquery per point would read the whole CTE each time).
       told AS (SELECT pe.x, pe.carrier_id, jsonb_agg(DISTINCT jsonb_build_object('channel', ch, 'address', ${addressSql('ch', 'pe')}, 'locale', pe.locale)) AS people
                  FROM people pe JOIN p ON p.x = pe.x AND p.carrier_id = pe.carrier_id JOIN lv ON lv.x = pe.x AND lv.carrier_id = pe.carrier_id
                 CROSS JOIN unnest(p.channels) AS ch
                 WHERE (pe.alarm_level = lv.level OR (NOT lv.exact AND pe.alarm_level < lv.level)) AND ${addressSql('ch', 'pe')} <> ''
                 GROUP BY pe.x, pe.carrier_id)
       SELECT p.x, p.customer_id, p.paused, p.covered, p.in_hours, p.has_trigger, p.raw_channels, p.channels, lv.level, told.people
         FROM p JOIN lv ON lv.x = p.x AND lv.carrier_id = p.carrier_id LEFT JOIN told ON told.x = p.x AND told.carrier_id = p.carrier_id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1]), pairs.map((p) => p[2]), pairs.map((p) => p[3]), pairs.map((p) => p[4])],
    );
    for (const r of rows) byX.set(Number(r.x), [...(byX.get(Number(r.x)) ?? []), r]);
  }
  for (const s of subjects) {
    const points = byX.get(s.exceptionId) ?? [];
    if (points.some((p) => p.paused)) out.paused.push(s.exceptionId);
    const live = points.filter((p) => !p.paused && p.covered);
    const seen = new Set<string>();
    for (const p of live)
      for (const to of p.people ?? []) {
        const key = `${to.channel}\n${to.address}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.targets.push({ exceptionId: s.exceptionId, customerId: s.customerId, channel: to.channel, recipient: to.address, locale: to.locale });
      }
    if (seen.size) {
      out.levels.set(s.exceptionId, Math.min(...live.filter((p) => p.people?.length).map((p) => Number(p.level))));
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
  if (rows.length)
    await q.query(
      `INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, subject, content, status, result)
       SELECT c, x, $9, ch, r, s, b, st, res FROM unnest($1::int[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::smallint[], $8::text[])
         AS v(c, x, ch, r, s, b, st, res)`,
      [
        rows.map((x) => x.customerId), rows.map((x) => x.exceptionId), rows.map((x) => x.channel), rows.map((x) => x.recipient),
        rows.map((x) => x.subject), rows.map((x) => x.content),
        rows.map((x) => x.status), rows.map((x) => x.result), opts.type ?? 'alarm',
      ],
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
