import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  CARRIER_STATUS,
  COMPLIANCE_LIMITS as L,
  DEVICE_STATUS,
  NOT_CLIMATE_SENSOR_TYPES,
  type ComplianceCheck,
  type ComplianceCheckSummary,
  type ComplianceFinding,
  type ComplianceRule,
} from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { paged, type PageInput, type Paged } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { lastAttempts, nextRun } from '../backup/backup.repository.js';
import { BACKUP_JOB } from '../backup/backup.service.js';

/*
 * The GSP checks (docs/compliance.md), computed from the records as they are at the call, so a
 * fix shows at once and nothing is stored that could go stale. Every statement goes through
 * the caller's scope and scene limit; each check is one derived table, which the page lists and
 * the summary counts, so the two cannot disagree.
 */

/** A scrapped or spare carrier holds no goods, so nothing it records is a GSP record. */
const IDLE_CARRIERS = [CARRIER_STATUS.scrapped, CARRIER_STATUS.spare];
/** A vehicle transports whatever mode it is set to. */
const VEHICLE = 3;
/** A mainland mobile number: the contact form also takes landlines, which cannot receive an SMS. */
const MOBILE = '^1[0-9]{10}$';

type Row = Omit<ComplianceFinding, 'key' | 'sms' | 'backup'> & { mobiles: number | null; smsChannel: boolean | null; customerSms: boolean | null; alarmOn: boolean | null };

/** The sensors recording for a carrier in use: bound, not stopped, measuring climate. */
function sensorsInUse(k: Kysely<DB>, scope: Scope, customerId?: number) {
  return k
    .selectFrom('sensor as x')
    .innerJoin('carrier as c', 'c.id', 'x.carrier_id')
    .innerJoin('customer as cu', 'cu.id', 'x.customer_id')
    .where('x.status', '<>', DEVICE_STATUS.stopped)
    .where('x.type', 'not in', NOT_CLIMATE_SENSOR_TYPES)
    .where('c.status', 'not in', IDLE_CARRIERS)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .$if(customerId !== undefined, (qb) => qb.where('x.customer_id', '=', customerId!));
}

/** The expression builder of a statement on sensorsInUse (its sensor x, carrier c and customer cu). */
type InUseBuilder = ReturnType<typeof sensorsInUse> extends SelectQueryBuilder<infer D, infer T, infer _O> ? ExpressionBuilder<D, T> : never;

/**
 * A collection parameter as the device last acknowledged it (`end`). A configuration sends only
 * the fields filled in, so the latest command that names the parameter holds its value; the
 * sensor's own sample interval is the console's record, not pushed to the device.
 */
const acknowledged = (eb: InUseBuilder, param: 'sampleInterval' | 'exceptionSampleInterval') =>
  eb
    .selectFrom('device_command as d')
    .select(sql<number>`(d.payload->'params'->>${sql.lit(param)})::int`.as('v'))
    .whereRef('d.sensor_id', '=', 'x.id')
    .where('d.kind', '=', 'config')
    .where('d.status', '=', 'end')
    .where(sql<boolean>`d.payload->'params'->>${sql.lit(param)} IS NOT NULL`)
    .orderBy('d.id', 'desc')
    .limit(1);

function intervals(k: Kysely<DB>, scope: Scope, customerId?: number) {
  return k.selectFrom(
    sensorsInUse(k, scope, customerId)
      .select((eb) => [
        'x.id as sensorId',
        'x.dev_no as devNo',
        'x.sample_interval as own',
        'c.id as carrierId',
        'c.name as carrierName',
        'cu.id as customerId',
        'cu.name as customerName',
        acknowledged(eb, 'sampleInterval').as('cfgSample'),
        acknowledged(eb, 'exceptionSampleInterval').as('cfgException'),
        sql<boolean>`(c.mode = 'transport' OR c.type = ${sql.lit(VEHICLE)})`.as('transport'),
      ])
      .as('iv'),
  );
}

// Over `iv`: the interval between records as the device runs it, and the most the rule allows.
const normalValue = sql<number>`coalesce(iv."cfgSample", iv.own)`;
const normalLimit = sql<number>`CASE WHEN iv.transport THEN ${sql.lit(L.transport)} ELSE ${sql.lit(L.storage)} END`;
const normalSource = sql<'sensor' | 'config' | 'exception'>`CASE WHEN iv."cfgSample" IS NULL THEN 'sensor' ELSE 'config' END`;
// Out of range the device records at its exception interval, or without one at its normal interval.
const outOfRangeValue = sql<number>`coalesce(iv."cfgException", iv."cfgSample", iv.own)`;
const outOfRangeSource = sql<'sensor' | 'config' | 'exception'>`CASE WHEN iv."cfgException" IS NOT NULL THEN 'exception' WHEN iv."cfgSample" IS NOT NULL THEN 'config' ELSE 'sensor' END`;

const none = {
  calibExpiry: sql<string | null>`NULL::text`,
  mobiles: sql<number | null>`NULL::int`,
  smsChannel: sql<boolean | null>`NULL::boolean`,
  customerSms: sql<boolean | null>`NULL::boolean`,
  alarmOn: sql<boolean | null>`NULL::boolean`,
};

function intervalFindings(k: Kysely<DB>, scope: Scope, customerId?: number) {
  const subject = ['iv.customerId', 'iv.customerName', 'iv.carrierId', 'iv.carrierName', 'iv.sensorId', 'iv.devNo'] as const;
  const normal = intervals(k, scope, customerId)
    .select([
      sql<ComplianceCheck>`'interval'`.as('check'),
      sql<ComplianceRule>`CASE WHEN iv.transport THEN 'transport' ELSE 'storage' END`.as('rule'),
      sql<'fail' | 'warn'>`'fail'`.as('severity'),
      ...subject,
      normalValue.as('value'),
      normalLimit.as('limit'),
      normalSource.as('source'),
      none.calibExpiry.as('calibExpiry'),
      none.mobiles.as('mobiles'),
      none.smsChannel.as('smsChannel'),
      none.customerSms.as('customerSms'),
      none.alarmOn.as('alarmOn'),
    ])
    .where(sql<boolean>`${normalValue} > ${normalLimit}`);
  const outOfRange = intervals(k, scope, customerId)
    .select([
      sql<ComplianceCheck>`'interval'`.as('check'),
      sql<ComplianceRule>`'outOfRange'`.as('rule'),
      sql<'fail' | 'warn'>`'fail'`.as('severity'),
      ...subject,
      outOfRangeValue.as('value'),
      sql<number>`${sql.lit(L.outOfRange)}`.as('limit'),
      outOfRangeSource.as('source'),
      none.calibExpiry.as('calibExpiry'),
      none.mobiles.as('mobiles'),
      none.smsChannel.as('smsChannel'),
      none.customerSms.as('customerSms'),
      none.alarmOn.as('alarmOn'),
    ])
    .where(sql<boolean>`${outOfRangeValue} > ${sql.lit(L.outOfRange)}`);
  return k.selectFrom(normal.unionAll(outOfRange).as('f')).selectAll();
}

/**
 * The carriers in use with what their alarms' SMS reach is made of: the distinct mobile numbers
 * among their contacts, counted only when the alarm is on, SMS is among the carrier's alarm
 * methods and the customer's SMS notification is on (the same list gets the power-failure
 * alarms of the carrier's gateways).
 */
function smsReach(k: Kysely<DB>, scope: Scope, customerId?: number) {
  return k.selectFrom(
    k
      .selectFrom('carrier as c')
      .innerJoin('customer as cu', 'cu.id', 'c.customer_id')
      .where('c.status', 'not in', IDLE_CARRIERS)
      .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
      .$if(customerId !== undefined, (qb) => qb.where('c.customer_id', '=', customerId!))
      .select((eb) => [
        'c.id as carrierId',
        'c.name as carrierName',
        'cu.id as customerId',
        'cu.name as customerName',
        eb
          .selectFrom('carrier_contact as cc')
          .innerJoin('contact as ct', 'ct.id', 'cc.contact_id')
          .select(sql<number>`count(DISTINCT ct.phone)::int`.as('n'))
          .whereRef('cc.carrier_id', '=', 'c.id')
          .whereRef('ct.customer_id', '=', 'c.customer_id')
          .where('ct.phone', '~', MOBILE)
          .as('mobiles'),
        // The channels are the bound trigger's (docs/alarms.md "Triggers"); without one, e-mail only.
        eb.exists(eb.selectFrom('alarm_trigger as at').select('at.id').whereRef('at.id', '=', 'c.trigger_id').where(sql<boolean>`'sms' = ANY(at.channels)`)).$castTo<boolean>().as('smsChannel'),
        'cu.notify_sms as customerSms',
        'c.alarm_on as alarmOn',
      ])
      .as('s'),
  );
}

const reach = sql<number>`CASE WHEN s."alarmOn" AND s."smsChannel" AND s."customerSms" THEN s.mobiles ELSE 0 END`;

function smsFindings(k: Kysely<DB>, scope: Scope, customerId?: number) {
  return smsReach(k, scope, customerId)
    .select([
      sql<ComplianceCheck>`'smsReach'`.as('check'),
      sql<ComplianceRule>`'sms'`.as('rule'),
      sql<'fail' | 'warn'>`'fail'`.as('severity'),
      's.customerId',
      's.customerName',
      's.carrierId',
      's.carrierName',
      sql<number | null>`NULL::int`.as('sensorId'),
      sql<string | null>`NULL::text`.as('devNo'),
      reach.as('value'),
      sql<number>`${sql.lit(L.smsPeople)}`.as('limit'),
      sql<'sensor' | 'config' | 'exception' | null>`NULL::text`.as('source'),
      none.calibExpiry.as('calibExpiry'),
      's.mobiles',
      's.smsChannel',
      's.customerSms',
      's.alarmOn',
    ])
    .where(sql<boolean>`${reach} < ${sql.lit(L.smsPeople)}`);
}

/** Days from the sensor's own today (its time zone) to the last valid day of its calibration. */
const daysLeft = sql<number>`(x.calib_expiry - ((now() AT TIME ZONE 'UTC') + x.tz::interval)::date)`;

function calibrationFindings(k: Kysely<DB>, scope: Scope, customerId?: number) {
  return sensorsInUse(k, scope, customerId)
    .select([
      sql<ComplianceCheck>`'calibration'`.as('check'),
      sql<ComplianceRule>`CASE WHEN ${daysLeft} < 0 THEN 'expired' ELSE 'expiring' END`.as('rule'),
      sql<'fail' | 'warn'>`CASE WHEN ${daysLeft} < 0 THEN 'fail' ELSE 'warn' END`.as('severity'),
      'cu.id as customerId',
      'cu.name as customerName',
      'c.id as carrierId',
      'c.name as carrierName',
      'x.id as sensorId',
      'x.dev_no as devNo',
      daysLeft.as('value'),
      sql<number>`${sql.lit(L.calibrationWarnDays)}`.as('limit'),
      sql<'sensor' | 'config' | 'exception' | null>`NULL::text`.as('source'),
      sql<string | null>`to_char(x.calib_expiry, 'YYYY-MM-DD')`.as('calibExpiry'),
      none.mobiles.as('mobiles'),
      none.smsChannel.as('smsChannel'),
      none.customerSms.as('customerSms'),
      none.alarmOn.as('alarmOn'),
    ])
    .where('x.calib_expiry', 'is not', null)
    .where(sql<boolean>`${daysLeft} <= ${sql.lit(L.calibrationWarnDays)}`);
}

/** Worst first within a check; the record's id last, so pages are stable. */
const ORDER: Record<Exclude<ComplianceCheck, 'backup'>, string[]> = {
  interval: ['f.customerName', 'f.devNo', 'f.sensorId', 'f.limit desc'],
  smsReach: ['f.value', 'f.customerName', 'f.carrierName', 'f.carrierId'],
  calibration: ['f.value', 'f.customerName', 'f.devNo', 'f.sensorId'],
};

const finding = (r: Row): ComplianceFinding => {
  const { mobiles, smsChannel, customerSms, alarmOn, ...rest } = r;
  return {
    ...rest,
    key: `${r.check}:${r.rule}:${r.sensorId ?? r.carrierId}`,
    sms: r.check === 'smsReach' ? { mobiles: mobiles ?? 0, channel: !!smsChannel, customer: !!customerSms, alarmOn: !!alarmOn } : null,
    backup: null,
  };
};

const HOUR_MS = 3_600_000;

/**
 * The daily backup: one finding about the whole console while its last good backup is older
 * than the rule allows (or there is none). Backups are the platform's, not a customer's, so
 * every caller sees the same state; a customer's records are in them all the same.
 */
async function backupFinding(q: Queryable, now = Date.now()): Promise<ComplianceFinding | null> {
  const [{ lastAt, failedAt }, nextRunAt] = await Promise.all([lastAttempts(q), nextRun(q, BACKUP_JOB)]);
  const hours = lastAt === null ? 0 : Math.floor((now - lastAt) / HOUR_MS);
  if (lastAt !== null && now - lastAt <= L.backupHours * HOUR_MS) return null;
  return {
    key: 'backup:backupDaily:console',
    check: 'backup',
    rule: 'backupDaily',
    severity: 'fail',
    customerId: null,
    customerName: null,
    carrierId: null,
    carrierName: null,
    sensorId: null,
    devNo: null,
    value: hours,
    limit: L.backupHours,
    source: null,
    calibExpiry: null,
    sms: null,
    backup: { lastAt, failedAt, nextRunAt },
  };
}

/** One check's findings in the caller's customers (one of them with `customerId`). */
export async function page(q: Queryable, scope: Scope, f: PageInput & { check: ComplianceCheck; customerId?: number }): Promise<Paged<ComplianceFinding>> {
  if (f.check === 'backup') {
    const found = await backupFinding(q);
    const rows = found ? [found] : [];
    return { rows: rows.slice(f.iDisplayStart, f.iDisplayStart + f.iDisplayLength), total: rows.length, iDisplayStart: f.iDisplayStart, iDisplayLength: f.iDisplayLength };
  }
  const k = scoped(q, scope);
  // The three derived tables share the row's columns; their nullabilities differ by check.
  const by = ORDER[f.check];
  const pageOf = <D, T extends keyof D, R extends Row>(from: SelectQueryBuilder<D, T, R>) => paged(from, { ...f, sort: undefined }, { by });
  const res = await (f.check === 'interval'
    ? pageOf(intervalFindings(k, scope, f.customerId))
    : f.check === 'smsReach'
      ? pageOf(k.selectFrom(smsFindings(k, scope, f.customerId).as('f')).selectAll())
      : pageOf(k.selectFrom(calibrationFindings(k, scope, f.customerId).as('f')).selectAll()));
  return { ...res, rows: res.rows.map(finding) };
}

/** Each check: what it looked at and its findings. */
export async function summary(q: Queryable, scope: Scope, customerId?: number): Promise<ComplianceCheckSummary[]> {
  const k = scoped(q, scope);
  const n = sql<number>`count(*)::int`;
  const [iv, sms, cal, backup] = await Promise.all([
    intervals(k, scope, customerId)
      .select([
        n.as('checked'),
        sql<number>`(count(*) FILTER (WHERE ${normalValue} > ${normalLimit}) + count(*) FILTER (WHERE ${outOfRangeValue} > ${sql.lit(L.outOfRange)}))::int`.as('fail'),
      ])
      .executeTakeFirstOrThrow(),
    smsReach(k, scope, customerId)
      .select([n.as('checked'), sql<number>`(count(*) FILTER (WHERE ${reach} < ${sql.lit(L.smsPeople)}))::int`.as('fail')])
      .executeTakeFirstOrThrow(),
    sensorsInUse(k, scope, customerId)
      .select([
        n.as('checked'),
        sql<number>`(count(*) FILTER (WHERE ${daysLeft} < 0))::int`.as('fail'),
        sql<number>`(count(*) FILTER (WHERE ${daysLeft} BETWEEN 0 AND ${sql.lit(L.calibrationWarnDays)}))::int`.as('warn'),
        sql<number>`(count(*) FILTER (WHERE x.calib_expiry IS NULL))::int`.as('unrecorded'),
      ])
      .executeTakeFirstOrThrow(),
    backupFinding(q),
  ]);
  return [
    { check: 'interval', checked: iv.checked, fail: iv.fail, warn: 0, unrecorded: 0 },
    { check: 'smsReach', checked: sms.checked, fail: sms.fail, warn: 0, unrecorded: 0 },
    { check: 'calibration', checked: cal.checked, fail: cal.fail, warn: cal.warn, unrecorded: cal.unrecorded },
    { check: 'backup', checked: 1, fail: backup ? 1 : 0, warn: 0, unrecorded: 0 },
  ];
}
