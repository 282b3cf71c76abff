import {
  defaultIntervalS,
  FAULT_TOLERANCE_DEFAULT,
  MONITOR_FAMILIES,
  MONITOR_TASK_STATUS,
  SENSOR_FAMILY_PREFIXES,
  type MonitorFamily,
} from '@coldwatch/contract';

/*
 * The offline rule, in one place (docs/devices.md "Monitor tasks"): how long a device may be
 * silent before it counts as offline. The presence scan, the ingest writer (a reading brings a
 * sensor back only while it is fresh by this rule), the carrier value's staleness (alarm/carrier.ts)
 * and its history (modules/history/carrierHistory.ts) all read it here, so the board, the
 * carrier value and the alarms keep agreeing. The contract's offlineAfterS is the same rule in
 * TypeScript; offline.test.ts holds the two to each other.
 *
 * The SQL fragments take the alias (or table name) of the device row, whose columns they read:
 * a sensor's customer_id, type and sample_interval; a gateway's, display's or relay's customer_id.
 */

const RUNNING = MONITOR_TASK_STATUS.running;

/**
 * The fault-detection tolerance coefficient of /sys/paramsetup (spec §3), its default while unset
 * or not a whole number: one uncorrelated subquery, evaluated once per statement.
 */
const TOLERANCE_SQL = `coalesce((SELECT value::int FROM setting WHERE key = 'fault_tolerance_coefficient' AND value ~ '^[0-9]{1,2}$'), ${FAULT_TOLERANCE_DEFAULT})`;

/** The monitor family of a sensor row's type column (contract sensorFamily). */
export function sensorFamilySql(type: string): string {
  const arms = Object.entries(SENSOR_FAMILY_PREFIXES).map(([family, prefix]) => `WHEN ${type} LIKE '${prefix}%' THEN '${family}'`);
  return `(CASE ${arms.join(' ')} ELSE 'zbp' END)`;
}

/** The platform default of a family expression, in seconds (contract MONITOR_TASK_DEFAULTS). */
function defaultSql(family: string): string {
  return `(CASE ${family} ${MONITOR_FAMILIES.map((f) => `WHEN '${f}' THEN ${defaultIntervalS(f)}`).join(' ')} END)`;
}

/** The customer's own running task of the family, in seconds; NULL when it has none or it is stopped. */
const runningTaskSql = (customer: string, family: string) =>
  `(SELECT mt.interval_s FROM monitor_task mt WHERE mt.customer_id = ${customer} AND mt.family = ${family} AND mt.status = ${RUNNING})`;

/** Whether the family's task runs for the customer (an inherited default runs). */
const taskRunsSql = (customer: string, family: string) =>
  `coalesce((SELECT mt.status = ${RUNNING} FROM monitor_task mt WHERE mt.customer_id = ${customer} AND mt.family = ${family}), true)`;

/** Seconds of silence after which a device of a fixed family (gateway, display, relay) is offline. */
function fixedOfflineAfterS(alias: string, family: Exclude<MonitorFamily, 'zbp' | 'zbp2' | '4g' | 'lora' | 'zeta'>): string {
  return `coalesce(${runningTaskSql(`${alias}.customer_id`, `'${family}'`)}, ${defaultIntervalS(family)})`;
}

/**
 * Seconds of silence after which the sensor `alias` is offline: its family's task while it runs,
 * the family's default while it is stopped or missing, never below the tolerance coefficient × its
 * sample interval + 60 s.
 */
export function sensorOfflineAfterS(alias: string): string {
  const family = sensorFamilySql(`${alias}.type`);
  // The contract's sensorFloorS(sampleInterval, coefficient); offline.test.ts compares the two.
  return `greatest(${TOLERANCE_SQL} * ${alias}.sample_interval + 60, coalesce(${runningTaskSql(`${alias}.customer_id`, family)}, ${defaultSql(family)}))`;
}
export const gatewayOfflineAfterS = (alias: string) => fixedOfflineAfterS(alias, 'gateway');
export const displayOfflineAfterS = (alias: string) => fixedOfflineAfterS(alias, 'display');
export const relayOfflineAfterS = (alias: string) => fixedOfflineAfterS(alias, 'relay');

/** Whether the sensor's task runs: a stopped task raises no connection exception (the board still shows offline). */
export const sensorTaskRuns = (alias: string) => taskRunsSql(`${alias}.customer_id`, sensorFamilySql(`${alias}.type`));
export const familyTaskRuns = (alias: string, family: 'gateway' | 'display' | 'relay') => taskRunsSql(`${alias}.customer_id`, `'${family}'`);

/** "Silent for longer than its rule allows" of a sensor row: no reading, or the last one too old. */
export const sensorSilent = (alias: string) => `(${alias}.last_ts IS NULL OR ${alias}.last_ts < now() - ${sensorOfflineAfterS(alias)} * interval '1 second')`;
/** The same of a gateway row (no heartbeat, no data). */
export const gatewaySilent = (alias: string) => `(${alias}.last_seen_at IS NULL OR ${alias}.last_seen_at < now() - ${gatewayOfflineAfterS(alias)} * interval '1 second')`;
