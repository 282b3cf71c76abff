import { z } from 'zod';
import { EXCEPTION_CATEGORIES, NOTICE_CHANNELS } from '../enums.js';
import { ALARM_DEFAULTS, alarmDelaySeconds, alarmMargin, name, text } from '../rules.js';
import { RECORD_TIMES_MAX, recordMinute, timesFault } from './recordPoint.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/*
 * Alarm triggers (spec §3 "Alarm trigger", §2 /sysAlarm, function object AlarmTrigger): who is
 * told of a carrier's exceptions, how, when, and how often. One trigger serves many carriers;
 * a carrier has at most one. A carrier without a trigger keeps the console's first behaviour:
 * its own contacts by e-mail, once, with ALARM_DEFAULTS for delay and margins. docs/alarms.md
 * "Triggers" says how the server reads each field.
 */

/** Monday 1 … Sunday 7 (ISO, as PostgreSQL's isodow). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Contact alarm levels (spec §3 Contact "alarm level"): 1 is told first, 2 and 3 are the escalation. */
export const ALARM_LEVELS = [1, 2, 3] as const;
/** Spec "notification type": notify at the opening only, or at the opening and again when the exception ends. */
export const TRIGGER_NOTICE_TYPES = ['open', 'openEnd'] as const;
export const REPEAT_TIMES_MAX = 10;
/** Repeat interval and escalation time: whole minutes (spec §5 "alarm interval minimum unit minutes"), at most a day. */
export const TRIGGER_MINUTES_MAX = 1440;

/** "HH:MM" → minutes of the day (the collect records' own, so the two read times alike). */
export const minuteOfDay = recordMinute;
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'errors.alarmTrigger.time' });

const TIME_POINT_FAULT = { tooMany: 'errors.alarmTrigger.timePointsMax', gap: 'errors.alarmTrigger.timePointsGap' } as const;

/**
 * Spec §5/§9: the collect records' one rule of times of day (`timesFault`: at most
 * RECORD_TIMES_MAX, each RECORD_TIMES_MIN_GAP_MIN minutes from its neighbours around the clock),
 * said with the trigger's own messages. Returns the message key of the fault, or null.
 */
export function timePointsFault(points: readonly string[]): string | null {
  const fault = timesFault(points.map(recordMinute));
  return fault ? TIME_POINT_FAULT[fault] : null;
}

const minutes = (key: string, min: number) =>
  z.number({ error: key }).int({ error: key }).min(min, { error: key }).max(TRIGGER_MINUTES_MAX, { error: key });

export const triggerWindow = z.object({ start: hhmm, end: hhmm }).refine((w) => w.start !== w.end, { error: 'errors.alarmTrigger.window', path: ['end'] });
export type TriggerWindow = z.infer<typeof triggerWindow>;

const triggerBody = z
  .object({
    name: name(50),
    /** The exception categories it alarms; the others of its carriers are recorded and told to nobody. */
    categories: z.array(z.enum(EXCEPTION_CATEGORIES, { error: 'errors.alarmTrigger.category' })).min(1, { error: 'errors.alarmTrigger.categories' }).transform((a) => [...new Set(a)]).default([...EXCEPTION_CATEGORIES]),
    /** Within its hours. */
    channels: z.array(z.enum(NOTICE_CHANNELS, { error: 'errors.rule.alarmMethod' })).min(1, { error: 'errors.rule.alarmMethodRequired' }).transform((a) => [...new Set(a)]).default(['email']),
    /** Recipients: contacts, every contact of the named groups, every contact of the levels; the bound carriers' own contacts always. */
    contactIds: z.array(z.number().int().positive()).max(200).default([]),
    groupNames: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
    levels: z.array(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'errors.alarmTrigger.level' })).default([]),
    reason: text(250).default(''),
    /** Its hours: time windows (in the customer's zone; an end before the start runs over midnight), none = all day, on these weekdays. */
    windows: z.array(triggerWindow).max(RECORD_TIMES_MAX, { error: 'errors.alarmTrigger.windowsMax' }).default([]),
    weekdays: z.array(z.number().int().min(1, { error: 'errors.alarmTrigger.weekdays' }).max(7, { error: 'errors.alarmTrigger.weekdays' })).min(1, { error: 'errors.alarmTrigger.weekdays' }).transform((a) => [...new Set(a)].sort()).default([...WEEKDAYS]),
    /** Outside its hours: the channels (none: nobody is told, the notice log says so) and the levels told (none: the same as within). */
    offChannels: z.array(z.enum(NOTICE_CHANNELS, { error: 'errors.rule.alarmMethod' })).transform((a) => [...new Set(a)]).default([]),
    offLevels: z.array(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'errors.alarmTrigger.level' })).default([]),
    /** Times of day at which a still unacknowledged ongoing exception is told again (a shift reminder). */
    timePoints: z.array(hhmm).default([]),
    delayS: alarmDelaySeconds.default(ALARM_DEFAULTS.delayS),
    tempMargin: alarmMargin.default(ALARM_DEFAULTS.tempMargin),
    humMargin: alarmMargin.default(ALARM_DEFAULTS.humMargin),
    repeatTimes: z.number({ error: 'errors.alarmTrigger.repeatTimes' }).int({ error: 'errors.alarmTrigger.repeatTimes' }).min(0, { error: 'errors.alarmTrigger.repeatTimes' }).max(REPEAT_TIMES_MAX, { error: 'errors.alarmTrigger.repeatTimes' }).default(0),
    repeatIntervalMin: minutes('errors.alarmTrigger.repeatInterval', 1).default(30),
    /** Spec "period": minutes without acknowledgement before the next alarm level is told; 0 tells every level at once. */
    escalateAfterMin: minutes('errors.alarmTrigger.escalate', 0).default(0),
    noticeType: z.enum(TRIGGER_NOTICE_TYPES, { error: 'errors.alarmTrigger.noticeType' }).default('open'),
    /** The carriers it serves: when given, exactly these (a carrier leaves its former trigger); left out, the binding stays. */
    carrierIds: z.array(z.number().int().positive()).max(500).optional(),
  })
  .superRefine((b, ctx) => {
    const fault = timePointsFault(b.timePoints);
    if (fault) ctx.addIssue({ code: 'custom', path: ['timePoints'], message: fault });
  });

export const alarmTriggerAddBody = triggerBody.safeExtend({ customerId: z.number().int().positive().optional() });
export const alarmTriggerUpdateBody = triggerBody.safeExtend({ id: z.number({ error: 'errors.rule.required' }).int().positive().max(2_147_483_647) });
export type AlarmTriggerAddBody = z.input<typeof alarmTriggerAddBody>;
export type AlarmTriggerUpdateBody = z.input<typeof alarmTriggerUpdateBody>;
export type AlarmTriggerFields = z.output<typeof triggerBody>;

export const alarmTriggerRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  name: z.string(),
  categories: z.array(z.string()),
  channels: z.array(z.enum(NOTICE_CHANNELS)),
  contactIds: z.array(z.number().int()),
  contactNames: z.array(z.string()),
  groupNames: z.array(z.string()),
  levels: z.array(z.number().int()),
  reason: z.string(),
  windows: z.array(triggerWindow),
  weekdays: z.array(z.number().int()),
  offChannels: z.array(z.enum(NOTICE_CHANNELS)),
  offLevels: z.array(z.number().int()),
  timePoints: z.array(z.string()),
  delayS: z.number().int(),
  tempMargin: z.number(),
  humMargin: z.number(),
  repeatTimes: z.number().int(),
  repeatIntervalMin: z.number().int(),
  escalateAfterMin: z.number().int(),
  noticeType: z.enum(TRIGGER_NOTICE_TYPES),
  carrierIds: z.array(z.number().int()),
  carrierNames: z.array(z.string()),
  updatedAt: ms,
});
export type AlarmTriggerRow = z.infer<typeof alarmTriggerRow>;

/** Pausing carriers' alarms (spec §4 "alarm can be paused and restarted"): until a time, for a reason. */
export const alarmPauseBody = z.object({
  ids: z.array(z.number().int().positive()).min(1, { error: 'errors.selectAtLeastOne' }).max(500),
  /** The end (UTC ms, in the future); null resumes now. */
  until: z.number().int().positive().nullable(),
  reason: text(250).default(''),
});
export type AlarmPauseBody = z.input<typeof alarmPauseBody>;

const tag = 'alarmTrigger';
export const alarmTriggerApi = {
  page: route({
    method: 'GET',
    path: '/service/alarmTrigger/page',
    tag,
    summary: "The alarm triggers of the caller's customers",
    query: pageQuery({ name: z.string().trim().max(50).optional(), customerId: id.optional(), carrierId: id.optional() }),
    result: pageOf(alarmTriggerRow),
  }),
  detail: route({ method: 'GET', path: '/service/alarmTrigger/detail', tag, summary: 'One alarm trigger', query: idQuery, result: alarmTriggerRow }),
  options: route({
    method: 'GET',
    path: '/service/alarmTrigger/options',
    tag,
    summary: "One customer's triggers (the caller's current one by default): what a carrier may be bound to",
    query: z.object({ customerId: id.optional() }),
    result: z.array(z.object({ id: z.number().int(), name: z.string(), channels: z.array(z.enum(NOTICE_CHANNELS)) })),
  }),
  add: route({ method: 'POST', path: '/service/alarmTrigger/add', tag, summary: 'Create an alarm trigger', body: alarmTriggerAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/alarmTrigger/update', tag, summary: 'Change an alarm trigger', body: alarmTriggerUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/alarmTrigger/del', tag, summary: 'Delete alarm triggers no carrier is bound to (all or none)', query: idsQuery, result: deletedResult }),
  pause: route({
    method: 'PUT',
    path: '/service/carrier/alarmPause',
    tag,
    summary: 'Pause the alarm of carriers until a time, for a reason (excursions are still recorded, nobody is told), or resume it; written to the alarm-switch log',
    body: alarmPauseBody,
    result: z.object({ changed: z.number().int() }),
  }),
};
