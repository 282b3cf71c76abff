import { z } from 'zod';
import { deletedResult, id, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Monitor tasks (spec §3 Monitor task, §2 /arch/task, menu `monitorTask`): offline detection per
 * device family, with an interval in minutes, hours or days and a status running or stopped.
 * A task's interval is the silence after which a device of its family counts as offline; the
 * server turns it into the one offline rule (server/src/alarm/offline.ts) that the presence
 * scan, the ingest writer, the carrier value and its history all read. docs/devices.md
 * "Monitor tasks" says what each family covers and what a stopped task means.
 */

/** The families of spec §3: the sensor radios (ZBP, ZBP v2, 4G, LoRa, ZETA), then gateway, display and relay 1.0. */
export const MONITOR_FAMILIES = ['zbp', 'zbp2', '4g', 'lora', 'zeta', 'gateway', 'display', 'relay'] as const;
export type MonitorFamily = (typeof MONITOR_FAMILIES)[number];
export const SENSOR_FAMILIES = ['zbp', 'zbp2', '4g', 'lora', 'zeta'] as const satisfies readonly MonitorFamily[];
export type SensorFamily = (typeof SENSOR_FAMILIES)[number];

/**
 * The family of a sensor row's type (packages/contract enums SENSOR_TYPES). Gas detectors and
 * door magnets hang on a gateway's ZigBee radio like the first sensors, so they are judged as
 * ZBP; so is a type the catalogue does not know.
 */
export function sensorFamily(type: string): SensorFamily {
  if (type.startsWith('zbp2')) return 'zbp2';
  if (type.startsWith('4g')) return '4g';
  if (type.startsWith('lora')) return 'lora';
  if (type.startsWith('zeta')) return 'zeta';
  return 'zbp';
}
/** The type prefixes of each radio family but ZBP (everything else), for the SQL the server builds from this one mapping. */
export const SENSOR_FAMILY_PREFIXES: Record<Exclude<SensorFamily, 'zbp'>, string> = { zbp2: 'zbp2', '4g': '4g', lora: 'lora', zeta: 'zeta' };

export const INTERVAL_UNITS = ['minute', 'hour', 'day'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
export const UNIT_SECONDS: Record<IntervalUnit, number> = { minute: 60, hour: 3600, day: 86_400 };
/** The longest interval a task may have: 30 days (a device silent for a month is lost, whatever its task). */
export const MAX_INTERVAL_S = 30 * 86_400;

export const MONITOR_TASK_STATUS = { stopped: 0, running: 1 } as const;

/**
 * The platform's defaults, which a customer inherits until it sets a family's task itself
 * (docs/devices.md "Monitor tasks"): ten minutes of silence for a sensor (the demo's sensors,
 * which report every few seconds, are offline within ten minutes), five for a gateway (its
 * heartbeat), and five for a display or relay (their gateway's presence). Running.
 */
export const MONITOR_TASK_DEFAULTS: Record<MonitorFamily, { intervalValue: number; intervalUnit: IntervalUnit }> = {
  zbp: { intervalValue: 10, intervalUnit: 'minute' },
  zbp2: { intervalValue: 10, intervalUnit: 'minute' },
  '4g': { intervalValue: 10, intervalUnit: 'minute' },
  lora: { intervalValue: 10, intervalUnit: 'minute' },
  zeta: { intervalValue: 10, intervalUnit: 'minute' },
  gateway: { intervalValue: 5, intervalUnit: 'minute' },
  display: { intervalValue: 5, intervalUnit: 'minute' },
  relay: { intervalValue: 5, intervalUnit: 'minute' },
};
export const defaultIntervalS = (f: MonitorFamily) => MONITOR_TASK_DEFAULTS[f].intervalValue * UNIT_SECONDS[MONITOR_TASK_DEFAULTS[f].intervalUnit];

/**
 * A sensor never counts as offline before it has missed three reports: the floor of the rule,
 * `coefficient × sample interval + 60 s` (the console's rule before monitor tasks; the coefficient
 * is the fault-detection tolerance parameter, 3 by default). A task shorter than that would call a
 * sensor that reports every half hour offline between two readings.
 */
export const sensorFloorS = (sampleIntervalS: number, coefficient = FAULT_TOLERANCE_DEFAULT) => coefficient * sampleIntervalS + 60;
/** The reports a sensor may miss before it is offline: the default of the "fault-detection tolerance coefficient" parameter (spec §3, /sys/paramsetup). */
export const FAULT_TOLERANCE_DEFAULT = 3;

/**
 * Seconds of silence after which a device counts as offline: its family's task while the task
 * runs, the family's default while it is stopped or missing, and for a sensor never below the
 * floor. The server's SQL is built from the same parts (server/src/alarm/offline.ts).
 */
export function offlineAfterS(family: MonitorFamily, task: { intervalS: number; status: number } | null | undefined, sampleIntervalS?: number, coefficient = FAULT_TOLERANCE_DEFAULT): number {
  const interval = task && task.status === MONITOR_TASK_STATUS.running ? task.intervalS : defaultIntervalS(family);
  return sampleIntervalS === undefined ? interval : Math.max(interval, sensorFloorS(sampleIntervalS, coefficient));
}

/**
 * Low battery (docs/devices.md "Monitor tasks"): a reading's `volt` below its family's
 * threshold opens a low-battery exception; one at or above threshold + LOW_BATTERY_MARGIN_V
 * (a new battery) ends it. The thresholds are the end of life under load of the cells each
 * radio runs on: 3 V lithium cells for ZigBee (ZBP, ZBP v2, gas detectors and door magnets),
 * 3.6 V lithium-thionyl chloride for LoRa and ZETA, which sag early, and the 4G units' pack.
 */
export const LOW_BATTERY_VOLTS: Record<SensorFamily, number> = { zbp: 2.5, zbp2: 2.5, lora: 2.6, zeta: 2.6, '4g': 2.7 };
export const LOW_BATTERY_MARGIN_V = 0.1;

const intervalValue = z.number({ error: 'errors.monitorTask.interval' }).int({ error: 'errors.monitorTask.interval' }).min(1, { error: 'errors.monitorTask.interval' });

/** §5: a whole number of minutes, hours or days, at least 1 and at most 30 days in all. */
export const monitorTaskBody = z
  .object({
    /** Whose task (a platform or proxy user names the customer; a customer's user sets its own). */
    customerId: id.optional(),
    family: z.enum(MONITOR_FAMILIES, { error: 'errors.monitorTask.family' }),
    intervalValue,
    intervalUnit: z.enum(INTERVAL_UNITS, { error: 'errors.monitorTask.unit' }),
    status: z.union([z.literal(0), z.literal(1)], { error: 'errors.monitorTask.status' }),
  })
  .refine((b) => b.intervalValue * UNIT_SECONDS[b.intervalUnit] <= MAX_INTERVAL_S, { error: 'errors.monitorTask.interval', path: ['intervalValue'] });
export type MonitorTaskBody = z.infer<typeof monitorTaskBody>;

export const monitorTaskRow = z.object({
  /** The customer's own row; null while the family's task is the platform default it inherits. */
  id: z.number().int().nullable(),
  customerId: z.number().int(),
  customerName: z.string(),
  family: z.enum(MONITOR_FAMILIES),
  intervalValue: z.number().int(),
  intervalUnit: z.enum(INTERVAL_UNITS),
  /** 0 stopped, 1 running. */
  status: z.number().int(),
  /** True while the customer inherits the platform default. */
  inherited: z.boolean(),
  /** The customer's devices of the family (stopped ones excluded): what the task watches. */
  devices: z.number().int(),
  updatedAt: ms.nullable(),
  updatedBy: z.string().nullable(),
});
export type MonitorTaskRow = z.infer<typeof monitorTaskRow>;

const tag = 'monitorTask';
export const monitorTaskApi = {
  page: route({
    method: 'GET',
    path: '/service/monitorTask/page',
    tag,
    summary: "The monitor tasks of the caller's customers: each family's own task or the default it inherits",
    query: pageQuery({
      customerId: id.optional(),
      family: z.enum(MONITOR_FAMILIES).optional(),
      status: z.coerce.number().int().min(0).max(1).optional(),
    }),
    result: pageOf(monitorTaskRow),
  }),
  update: route({
    method: 'PUT',
    path: '/service/monitorTask/update',
    tag,
    summary: "Set a family's task of a customer (interval, running or stopped); answers the customer's row",
    body: monitorTaskBody,
    result: idResult,
  }),
  del: route({
    method: 'DELETE',
    path: '/service/monitorTask/del',
    tag,
    summary: "Give tasks back to the platform default (deletes the customer's own rows)",
    query: idsQuery,
    result: deletedResult,
  }),
};
