import { z } from 'zod';
import { id, pageOf, pageQuery, route } from './route.js';

/*
 * The GSP checks of /count/guidance (menu analGuidance): what a customer's set-up breaks of the
 * rules for automatic temperature monitoring, each finding naming the thing to fix. How each one
 * is computed, and the rules they come from: docs/compliance.md.
 */

export const COMPLIANCE_CHECKS = ['interval', 'smsReach', 'calibration', 'backup'] as const;
export type ComplianceCheck = (typeof COMPLIANCE_CHECKS)[number];

/**
 * The rule a finding breaks: the recording interval in storage, in transport or out of range;
 * SMS alarms to three people; calibration expired or about to; a good backup every day.
 */
export const COMPLIANCE_RULES = ['storage', 'transport', 'outOfRange', 'sms', 'expired', 'expiring', 'backupDaily'] as const;
export type ComplianceRule = (typeof COMPLIANCE_RULES)[number];

export const COMPLIANCE_SEVERITIES = ['fail', 'warn'] as const;

/** The figures of the rules (China GSP appendix on automatic monitoring; WHO TRS 961 Annex 9 supplement 10). */
export const COMPLIANCE_LIMITS = {
  /** Seconds between records in storage. */
  storage: 1800,
  /** Seconds between records on a carrier in transport. */
  transport: 300,
  /** Seconds between records while a value is out of its range. */
  outOfRange: 120,
  /** People an alarm reaches by SMS. */
  smsPeople: 3,
  /** Days before a calibration expires that it is flagged. */
  calibrationWarnDays: 30,
  /** Hours the last good backup may be old: a day, and two hours for the daily run itself to finish. */
  backupHours: 26,
} as const;

export const complianceFinding = z.object({
  /** Stable across calls: the check, its rule and the record it is about. */
  key: z.string(),
  check: z.enum(COMPLIANCE_CHECKS),
  rule: z.enum(COMPLIANCE_RULES),
  severity: z.enum(COMPLIANCE_SEVERITIES),
  /** The customer and carrier it is about; null for a backup finding (about the whole console). */
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  /** The sensor of an interval or calibration finding; null for an SMS finding (about the carrier). */
  sensorId: z.number().int().nullable(),
  devNo: z.string().nullable(),
  /**
   * interval: seconds between records; smsReach: people an alarm reaches by SMS; calibration: days
   * left (below 0: days past); backup: whole hours since the last good backup started (0 with none).
   */
  value: z.number().int(),
  /** interval: the most seconds the rule allows; smsReach: the people it asks for; calibration: the warning window in days; backup: the most hours. */
  limit: z.number().int(),
  /**
   * interval: where the interval comes from: the sensor's own sample interval (`sensor`), the
   * sample interval its device last acknowledged (`config`), or the exception interval it last
   * acknowledged (`exception`, out of range only).
   */
  source: z.enum(['sensor', 'config', 'exception']).nullable(),
  /** calibration: the last valid day, YYYY-MM-DD. */
  calibExpiry: z.string().nullable(),
  /** smsReach: what the reach is made of, so the page can say what to change. */
  sms: z
    .object({
      /** Distinct mobile numbers among the carrier's contacts. */
      mobiles: z.number().int(),
      /** SMS is among the carrier's alarm methods. */
      channel: z.boolean(),
      /** The customer's SMS notification is on. */
      customer: z.boolean(),
      /** The carrier's alarm switch is on. */
      alarmOn: z.boolean(),
    })
    .nullable(),
  /** backup: the console's backups, so the page can say when the last good one was and when the next runs. */
  backup: z
    .object({
      /** When the last good backup started; null: none has ever completed. */
      lastAt: z.number().int().nullable(),
      /** When the last failed attempt started, if it came after the last good backup. */
      failedAt: z.number().int().nullable(),
      /** When the backup job runs next; null before it first started. */
      nextRunAt: z.number().int().nullable(),
    })
    .nullable(),
});
export type ComplianceFinding = z.infer<typeof complianceFinding>;

export const complianceCheckSummary = z.object({
  check: z.enum(COMPLIANCE_CHECKS),
  /** Sensors (interval, calibration), carriers (smsReach) or databases (backup: 1) the check looked at. */
  checked: z.number().int(),
  fail: z.number().int(),
  warn: z.number().int(),
  /** calibration: sensors with no calibration date recorded, which the check cannot judge. */
  unrecorded: z.number().int(),
});
export type ComplianceCheckSummary = z.infer<typeof complianceCheckSummary>;

/** Platform users and proxies narrow to one customer; one outside the caller's scope finds nothing. */
const customerFilter = { customerId: id.optional() };
const tag = 'compliance';

export const complianceApi = {
  summary: route({
    method: 'GET',
    path: '/service/compliance/summary',
    tag,
    summary: 'Each GSP check of the caller\'s customers: how much it looked at and how many findings',
    query: z.object(customerFilter),
    result: z.object({ checks: z.array(complianceCheckSummary) }),
  }),
  page: route({
    method: 'GET',
    path: '/service/compliance/page',
    tag,
    summary: 'The findings of one GSP check in the caller\'s customers, worst first',
    query: pageQuery({ check: z.enum(COMPLIANCE_CHECKS, { error: 'errors.compliance.check' }), ...customerFilter }),
    result: pageOf(complianceFinding),
  }),
};
