import { z } from 'zod';
import { humidity, temperature, text } from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';
import { mappingInterval, mappingResult } from './mapping.js';

/*
 * Verification tasks (spec §2 /arch/verificationTask, menu verificationTask, function object
 * VerifyTask; §3, §4; issue 29; docs/statistics.md "Verification tasks"): a temperature mapping
 * study of one carrier with a chosen set of its probes. States: to be started → in progress
 * (task starting, then data recording from the record start) → terminated; the job `verify-task`
 * moves a task along its times, the actions start recording and terminate move it by hand. Its
 * result is the mapping figures (api/mapping.ts) over its recording, record start to end.
 */

export const VERIFY_STATUS = { toStart: 0, starting: 1, recording: 2, terminated: 3 } as const;
export type VerifyStatus = (typeof VERIFY_STATUS)[keyof typeof VERIFY_STATUS];
export const VERIFY_STATUS_NAMES = ['toStart', 'starting', 'recording', 'terminated'] as const;

/** Devices per task: JJF 1101 asks for 9 to 15 points in a chamber; a cold room may take more. */
export const VERIFY_DEVICES_MAX = 50;

const delayMin = z.number({ error: 'errors.verifyTask.delay' }).int({ error: 'errors.verifyTask.delay' }).min(1, { error: 'errors.verifyTask.delay' }).max(1440, { error: 'errors.verifyTask.delay' });
const dbId = z.number().int().positive().max(2_147_483_647);

const taskFields = {
  name: text(50).min(1, { error: 'errors.rule.required' }),
  carrierId: z.number({ error: 'errors.rule.required' }).pipe(dbId),
  sensorIds: z.array(dbId, { error: 'errors.verifyTask.devices' }).min(1, { error: 'errors.verifyTask.devices' }).max(VERIFY_DEVICES_MAX, { error: 'errors.verifyTask.devices' }),
  /** The centre point (one of sensorIds); null: the first device by number. */
  centreSensorId: dbId.nullish(),
  setpoint: temperature,
  humSetpoint: humidity.nullish(),
  startTime: ms.min(0),
  /** When data recording starts (defaults to the start): the time before it is the task's start-up, not evaluated. */
  recordStart: ms.min(0).nullish(),
  endTime: ms.min(0),
  /** Sampling frequency, seconds. */
  intervalS: mappingInterval,
  /** Minutes without a reading of a device, while recording, before the timeout notice. */
  dataDelayMin: delayMin.default(30),
  /** Minutes a device may be offline (silent), while recording, before the offline notice. */
  offlineDelayMin: delayMin.default(60),
  conditions: text(250).default(''),
  description: text(250).default(''),
  notifyComplete: z.boolean().default(true),
  notifyTimeout: z.boolean().default(true),
  notifyException: z.boolean().default(true),
};

type Checked = { sensorIds: number[]; centreSensorId?: number | null; startTime: number; recordStart?: number | null; endTime: number; dataDelayMin: number; offlineDelayMin: number };

/** §5 "start date not later than end date", and the fields that tie together, each on the field a form shows it under. */
function checkTask(b: Checked, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (b.startTime >= b.endTime) issue('startTime', 'errors.rule.startAfterEnd');
  const rs = b.recordStart ?? b.startTime;
  if (rs < b.startTime || rs > b.endTime) issue('recordStart', 'errors.verifyTask.recordStart');
  if (new Set(b.sensorIds).size !== b.sensorIds.length) issue('sensorIds', 'errors.verifyTask.devices');
  if (b.centreSensorId != null && !b.sensorIds.includes(b.centreSensorId)) issue('centreSensorId', 'errors.verifyTask.centre');
  if (b.offlineDelayMin < b.dataDelayMin) issue('offlineDelayMin', 'errors.verifyTask.offlineDelay');
}

export const verifyTaskAddBody = z.object({ ...taskFields, customerId: dbId.optional() }).superRefine(checkTask);
export const verifyTaskUpdateBody = z.object({ ...taskFields, id: z.number({ error: 'errors.rule.required' }).pipe(dbId) }).superRefine(checkTask);
export type VerifyTaskAddBody = z.input<typeof verifyTaskAddBody>;
export type VerifyTaskUpdateBody = z.input<typeof verifyTaskUpdateBody>;

export const verifyTaskRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  carrierId: z.number().int(),
  carrierName: z.string(),
  name: z.string(),
  description: z.string(),
  conditions: z.string(),
  setpoint: z.number(),
  humSetpoint: z.number().nullable(),
  devices: z.array(z.object({ id: z.number().int(), devNo: z.string() })),
  centreSensorId: z.number().int().nullable(),
  startTime: ms,
  recordStart: ms,
  endTime: ms,
  /** When the recording ended: the end, or when it was terminated by hand; null until then. */
  endedAt: ms.nullable(),
  /** Planned recording, record start to end, minutes. */
  durationMin: z.number().int(),
  intervalS: z.number().int(),
  dataDelayMin: z.number().int(),
  offlineDelayMin: z.number().int(),
  notifyComplete: z.boolean(),
  notifyTimeout: z.boolean(),
  notifyException: z.boolean(),
  /** VERIFY_STATUS. */
  status: z.number().int(),
  updatedAt: ms,
  updatedBy: z.string(),
});
export type VerifyTaskRow = z.infer<typeof verifyTaskRow>;

/** A task with its result: the mapping figures over its recording so far (null before recording starts). */
export const verifyTaskDetail = verifyTaskRow.extend({ result: mappingResult.nullable() });
export type VerifyTaskDetail = z.infer<typeof verifyTaskDetail>;

const tag = 'verifyTask';
export const verifyTaskApi = {
  page: route({
    method: 'GET',
    path: '/service/verifyTask/page',
    tag,
    summary: "The verification tasks of the caller's customers",
    query: pageQuery({
      name: z.string().trim().max(50).optional(),
      carrierId: id.optional(),
      status: z.coerce.number().int().min(0).max(3).optional(),
    }),
    result: pageOf(verifyTaskRow),
  }),
  detail: route({ method: 'GET', path: '/service/verifyTask/detail', tag, summary: 'One verification task with its mapping figures', query: idQuery, result: verifyTaskDetail }),
  add: route({ method: 'POST', path: '/service/verifyTask/add', tag, summary: 'Create a verification task (a past period is evaluated at once)', body: verifyTaskAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/verifyTask/update', tag, summary: 'Change a verification task that is not running', body: verifyTaskUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/verifyTask/del', tag, summary: 'Delete verification tasks (a running one cannot be deleted)', query: idsQuery, result: deletedResult }),
  start: route({ method: 'POST', path: '/service/verifyTask/start', tag, summary: 'Start recording now (a task to be started or starting)', query: idQuery, result: idResult }),
  terminate: route({ method: 'POST', path: '/service/verifyTask/terminate', tag, summary: 'Terminate a task now; its recording ends here', query: idQuery, result: idResult }),
};
