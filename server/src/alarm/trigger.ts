import { ALARM_DEFAULTS } from '@coldwatch/contract';

/*
 * What a carrier's alarm trigger (migration 0041; docs/alarms.md "Triggers") means to the
 * statements that judge and notify in SQL. Kept here once: the evaluator, the quiet check, the
 * ingest writer's hot/calm test, the recipients and the notice-chain job read these fragments.
 */

/**
 * The carrier with the alarm settings in force: the bound trigger's delay and margins, or the
 * contract's ALARM_DEFAULTS without one (a carrier without a trigger behaves as before triggers).
 * Used as a table (`${CARRIER_ALARM} k`): PostgreSQL inlines it, one key lookup more.
 */
export const CARRIER_ALARM = `(SELECT c.*, coalesce(t.delay_s, ${ALARM_DEFAULTS.delayS}) AS alarm_delay_s,
    coalesce(t.temp_margin, ${ALARM_DEFAULTS.tempMargin}) AS temp_margin, coalesce(t.hum_margin, ${ALARM_DEFAULTS.humMargin}) AS hum_margin
    FROM carrier c LEFT JOIN alarm_trigger t ON t.id = c.trigger_id)`;

/**
 * The local wall-clock time of `ts` in a customer zone "+08:00" (customer.time_zone), as a
 * timestamp without zone. Not `AT TIME ZONE tz`: PostgreSQL reads "+08:00" as POSIX, west positive.
 */
export const localTime = (ts: string, tz: string) =>
  `((${ts}) AT TIME ZONE 'UTC' + (CASE WHEN left(${tz}, 1) = '-' THEN -1 ELSE 1 END) * (substr(${tz}, 2, 2)::int * 60 + substr(${tz}, 5, 2)::int) * interval '1 minute')`;

/**
 * Whether `ts` lies within the hours of trigger `t` for a customer in zone `tz`: on one of its
 * weekdays and inside one of its windows (none: all day). A window whose end is not after its
 * start runs over midnight, and belongs to the weekday it starts on.
 */
export function inHoursSql(t: string, ts: string, tz: string): string {
  const local = localTime(ts, tz);
  const minute = `(extract(hour FROM ${local}) * 60 + extract(minute FROM ${local}))::int`;
  const dow = (shift: string) => `extract(isodow FROM ${local} ${shift})::smallint`;
  return `(cardinality(${t}.win_start) = 0 AND ${dow('')} = ANY(${t}.weekdays)
    OR EXISTS (SELECT 1 FROM unnest(${t}.win_start, ${t}.win_end) AS w(s, e)
                WHERE (w.s < w.e AND ${minute} >= w.s AND ${minute} < w.e AND ${dow('')} = ANY(${t}.weekdays))
                   OR (w.s >= w.e AND ${minute} >= w.s AND ${dow('')} = ANY(${t}.weekdays))
                   OR (w.s >= w.e AND ${minute} < w.e AND ${dow("- interval '1 day'")} = ANY(${t}.weekdays))))`;
}

/** The customer's master switch of a channel (docs/alarms.md "Triggers", precedence): e-mail by notify_email, SMS and voice (a phone) by notify_sms. */
export const channelAllowedSql = (channel: string, cu: string) => `(CASE ${channel} WHEN 'email' THEN ${cu}.notify_email ELSE ${cu}.notify_sms END)`;

/** The address of a contact on a channel: its e-mail, or its phone for SMS and voice; '' when it has none. */
export const addressSql = (channel: string, ct: string) => `(CASE ${channel} WHEN 'email' THEN ${ct}.email ELSE ${ct}.phone END)`;
