import { z } from 'zod';
import { route } from './route.js';

/**
 * Server-side parameters of spec §3 (/sys/paramsetup): global `setting` rows. Each known key
 * has a default (while no row exists) and a rule; nothing else is read or written. The
 * retention days are enforced by the retention job (docs/jobs.md).
 */
/**
 * An http(s) URL template with {z}, {x} and {y}, at most 255 characters, nothing that leaves an
 * attribute; its host only host characters (and {s}), since it becomes a CSP source.
 */
export const isTileUrl = (v: string) =>
  v.length <= 255 && /^https?:\/\/([A-Za-z0-9.-]|\{s\})+(:\d{1,5})?\/[^\s"'<>`]*$/.test(v) && ['{z}', '{x}', '{y}'].every((p) => v.includes(p));

/**
 * Days GxP records are kept at least: 5 years (China GSP article 42: records kept at least five
 * years; 21 CFR Part 11: the audit trail as long as the records it covers). Below it only in the
 * "not for GxP records" mode (GXP_RECORDS=off, docs/compliance.md).
 */
export const GXP_MIN_RETENTION_DAYS = 1827;

const days = (min: number, max: number, error: string) => ({ error, valid: (v: string) => /^\d{1,5}$/.test(v) && Number(v) >= min && Number(v) <= max });

export const PARAMS = {
  /** 'on': a new login ends the account's other sessions (§8 500104). */
  single_session: { default: 'off', error: 'errors.param.singleSession', valid: (v: string) => v === 'on' || v === 'off' },
  /** Readings and their rollups. GxP: at least GXP_MIN_RETENTION_DAYS (recordRetentionRefusal). */
  sensor_history_retention_days: { default: String(GXP_MIN_RETENTION_DAYS), ...days(1, 36500, 'errors.param.retentionDays') },
  /** The system log and the ingest reject log: never shorter than the records they cover. */
  log_retention_days: { default: String(GXP_MIN_RETENTION_DAYS), ...days(1, 36500, 'errors.param.retentionDays') },
  export_retention_days: { default: '7', ...days(1, 365, 'errors.param.clearDays') },
  cache_retention_days: { default: '1', ...days(1, 365, 'errors.param.clearDays') },
  /**
   * Tile URL of /databoard/monitorMap (`{z}/{x}/{y}`, optional `{s}`); empty = no tiles, a plain
   * background (no tile server is reachable offline). A Chinese provider's tiles are in GCJ-02.
   */
  /** Minutes a configuration command waits for its gateway's ack before it fails (spec §3 "sensor configuration timeout"). */
  sensor_config_timeout_minutes: { default: '10', ...days(1, 1440, 'errors.param.configTimeout') },
  /** 'on': every gateway heartbeat is kept (spec §3 "gateway heartbeat history on/off and days"), for the days below. */
  gateway_heartbeat_history: { default: 'on', error: 'errors.param.onOff', valid: (v: string) => v === 'on' || v === 'off' },
  gateway_heartbeat_history_days: { default: '30', ...days(1, 365, 'errors.param.clearDays') },
  /** Positions of carriers in transport mode (spec §3 "GPS history retention (days)"); a position of a trip that is still under way stays. */
  gps_history_retention_days: { default: '365', ...days(1, 36500, 'errors.param.retentionDays') },
  /** The "retention" exception (docs/alarms.md "Retention"): a vehicle on a trip staying within this radius (metres) … */
  trip_stay_radius_m: { default: '200', ...days(10, 10000, 'errors.param.stayRadius') },
  /** … for longer than these minutes opens it; moving out of the radius ends it. */
  trip_stay_minutes: { default: '30', ...days(1, 1440, 'errors.param.stayMinutes') },
  map_tile_url: { default: '', error: 'errors.param.tileUrl', valid: (v: string) => v === '' || isTileUrl(v) },
  /** Minutes a picture code (captcha) stays valid (spec §3 "verification validity (minutes)"): login, registration. */
  verification_validity_minutes: { default: '5', ...days(1, 30, 'errors.param.validityMinutes') },
  /** 'on': every login needs the picture code (spec §3 "login verification on/off"), as LOGIN_CAPTCHA=on does for the whole console. */
  login_verification: { default: 'off', error: 'errors.param.onOff', valid: (v: string) => v === 'on' || v === 'off' },
  /** Wrong passwords on one account within an hour after which its logins need the picture code even when off (spec §3 "login verification … time(s)"). */
  login_verification_after: { default: '10', ...days(1, 100, 'errors.param.verificationAfter') },
  /** Seconds between refreshes of the monitoring views while the live stream is down (spec §3 "monitoring auto-refresh (seconds)"). */
  monitor_refresh_seconds: { default: '30', ...days(10, 3600, 'errors.param.refreshSeconds') },
  /** Reports a sensor may miss before it is offline: the floor coefficient × sample interval + 60 s of the offline rule (spec §3 "fault-detection tolerance coefficient"; server alarm/offline.ts). */
  fault_tolerance_coefficient: { default: '3', ...days(1, 20, 'errors.param.toleranceCoefficient') },
  /** The device monitor's beep when an exception opens (spec §3 "alarm volume"), percent; 0 silent. */
  alarm_volume: { default: '60', ...days(0, 100, 'errors.param.alarmVolume') },
  /** How many beeps (spec §3 "alarm count"), 0 silent. */
  alarm_count: { default: '3', ...days(0, 10, 'errors.param.alarmCount') },
  /**
   * Seconds a new sensor samples and reports at when its form or import row names none (spec §3
   * "default transmission intervals"): §5's collection interval, 10 to 65535 s.
   */
  sensor_interval_seconds: { default: '60', ...days(10, 65535, 'errors.param.sensorInterval') },
  /**
   * A new display's heartbeat and a new relay's report, seconds, in the range of the device's own
   * field (10 to 86400). Their connection is judged by their gateway's presence, not by these
   * (docs/devices.md "Monitor tasks").
   */
  display_interval_seconds: { default: '60', ...days(10, 86400, 'errors.param.displayInterval') },
  relay_interval_seconds: { default: '60', ...days(10, 86400, 'errors.param.relayInterval') },
  /** Device labels printed on one A4 sheet (spec §3 "labels per page"; docs/devices.md "Labels"). */
  labels_per_page: { default: '12', ...days(1, 40, 'errors.param.labelsPerPage') },
  /** Years a whole-database backup is kept before it is deleted (spec §3 "backup history deletion (years)"). */
  backup_retention_years: { default: '5', error: 'errors.param.backupYears', valid: (v: string) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100 },
} as const satisfies Record<string, { default: string; error: string; valid: (v: string) => boolean }>;

export type ParamKey = keyof typeof PARAMS;
export const PARAM_KEYS = Object.keys(PARAMS) as ParamKey[];

/** The parameter that gives each device kind its default transmission interval (the one source of it: forms, API and import). */
export const TRANSMIT_INTERVAL_PARAM = { sensor: 'sensor_interval_seconds', display: 'display_interval_seconds', relay: 'relay_interval_seconds' } as const satisfies Record<string, ParamKey>;

/**
 * The records' retention rule beyond each value's own range, given the other values: under GxP
 * no record is kept less than 5 years, and in every mode the audit log is kept at least as long as
 * the sensor history it covers. Answers the message key of the refusal, or undefined.
 */
export function recordRetentionRefusal(key: ParamKey, value: string, current: Record<ParamKey, string>, gxpRecords: boolean): string | undefined {
  if (key !== 'sensor_history_retention_days' && key !== 'log_retention_days') return undefined;
  if (gxpRecords && Number(value) < GXP_MIN_RETENTION_DAYS) return 'errors.param.gxpMinimum';
  if (key === 'log_retention_days' && Number(value) < Number(current.sensor_history_retention_days)) return 'errors.param.logShorterThanHistory';
  if (key === 'sensor_history_retention_days' && Number(value) > Number(current.log_retention_days)) return 'errors.param.historyLongerThanLog';
  return undefined;
}

/** The days of sensor history kept (and accepted from a back-filling gateway): the stored value or its default, held to the GxP floor. */
export function historyRetentionDays(stored: string | undefined, gxpRecords: boolean): number {
  const days = Number(stored ?? PARAMS.sensor_history_retention_days.default);
  return Math.max(Number.isFinite(days) && days > 0 ? days : Number(PARAMS.sensor_history_retention_days.default), gxpRecords ? GXP_MIN_RETENTION_DAYS : 1);
}

/** The days the retention job keeps: the history's (historyRetentionDays), and the log never below it. */
export function effectiveRetention(current: Record<ParamKey, string>, gxpRecords: boolean): { history: number; log: number } {
  const history = historyRetentionDays(current.sensor_history_retention_days, gxpRecords);
  return { history, log: Math.max(Number(current.log_retention_days), history) };
}

/** A whole-number parameter as a number: the stored value, or its default when it is not a number (a row written by hand). */
export function paramNumber(key: ParamKey, stored: string | undefined): number {
  const n = Number(stored);
  return stored !== undefined && stored !== '' && Number.isFinite(n) ? n : Number(PARAMS[key].default);
}

/** {key, value}: a known key, and a value valid for it (numbers may come as numbers or strings). */
export const paramUpdateBody = z
  .object({
    key: z.enum(PARAM_KEYS as [ParamKey, ...ParamKey[]], { error: 'errors.param.unknownKey' }),
    value: z.union([z.string().trim(), z.number()]).transform(String),
  })
  .superRefine((b, ctx) => {
    const p = PARAMS[b.key];
    if (p && !p.valid(b.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: p.error });
  });

const values = z.object(Object.fromEntries(PARAM_KEYS.map((k) => [k, z.string()])) as Record<ParamKey, z.ZodString>);

export const paramApi = {
  list: route({
    method: 'GET',
    path: '/service/share/param',
    tag: 'param',
    summary: 'The server-side parameters and whether the caller may change them',
    result: values.extend({
      editable: z.boolean(),
      /** false in the "not for GxP records" mode (GXP_RECORDS=off): shorter record retention is allowed. */
      gxpRecords: z.boolean(),
    }),
  }),
  update: route({
    method: 'PUT',
    path: '/service/param/update',
    tag: 'param',
    summary: 'Change one server-side parameter',
    body: paramUpdateBody,
    result: z.object({ key: z.string(), value: z.string() }),
  }),
};
