import { z } from 'zod';
import { text } from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/*
 * Invalid rules (spec §2 /abnormal/invalidRule, menu invalidRule, function object InvalidRule;
 * issue 27; docs/alarms.md "Invalid rules"): periods during which chosen carriers' readings are
 * invalid, so that they raise no alarm and show as excluded in history. Three kinds:
 *   - schedule: weekdays × daily windows in the customer's time zone (a defrost cycle);
 *   - period: one start–end (loading, maintenance);
 *   - defrost: while the carrier's status is "defrost".
 * A rule applies from the moment it is created or changed: it never rewrites the past.
 */

export const INVALID_RULE_KINDS = ['schedule', 'period', 'defrost'] as const;
export type InvalidRuleKind = (typeof INVALID_RULE_KINDS)[number];

/** A one-off period lasts at most this long: a longer stop is the carrier's alarm switch, which the board shows. */
export const INVALID_PERIOD_MAX_MS = 31 * 86_400_000;
/** Daily windows per rule. */
export const INVALID_WINDOWS_MAX = 8;
/** Carriers per rule. */
export const INVALID_CARRIERS_MAX = 500;

const minute = z.number({ error: 'errors.rule.integer' }).int({ error: 'errors.rule.integer' }).min(0, { error: 'errors.invalidRule.window' }).max(1439, { error: 'errors.invalidRule.window' });
/** A daily window [from, to) in minutes of the day; to before from runs past midnight. */
export const invalidWindow = z.object({ from: minute, to: minute }).refine((w) => w.from !== w.to, { error: 'errors.invalidRule.window' });
export type InvalidWindow = z.infer<typeof invalidWindow>;

/** The minutes of a week a window covers on the 24-hour circle, as [start, end) within [0, 2880). */
const onCircle = (w: InvalidWindow): [number, number] => [w.from, w.to > w.from ? w.to : w.to + 1440];

/** Whether two of the windows overlap (on the 24-hour circle: 23:00–01:00 meets 00:30–02:00). */
export function windowsOverlap(windows: readonly InvalidWindow[]): boolean {
  const spans = windows.map(onCircle);
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length; j++) {
      for (const shift of [-1440, 0, 1440]) {
        if (spans[i][0] < spans[j][1] + shift && spans[j][0] + shift < spans[i][1]) return true;
      }
    }
  }
  return false;
}

const ruleFields = {
  name: text(50).min(1, { error: 'errors.rule.required' }),
  kind: z.enum(INVALID_RULE_KINDS, { error: 'errors.rule.required' }),
  carrierIds: z
    .array(z.number().int().positive().max(2_147_483_647), { error: 'errors.invalidRule.carriers' })
    .min(1, { error: 'errors.invalidRule.carriers' })
    .max(INVALID_CARRIERS_MAX, { error: 'errors.invalidRule.carriers' }),
  /** ISO weekdays, 1 Monday … 7 Sunday (schedule). */
  weekdays: z.array(z.number().int().min(1).max(7), { error: 'errors.invalidRule.weekdays' }).max(7).default([]),
  windows: z.array(invalidWindow).max(INVALID_WINDOWS_MAX, { error: 'errors.invalidRule.windowsMax' }).default([]),
  /** The period (UTC ms). */
  start: ms.min(0).nullish(),
  end: ms.min(0).nullish(),
  reasonId: z.number().int().positive().max(2_147_483_647).nullish(),
  remark: text(250).default(''),
  enabled: z.boolean().default(true),
};

type Checked = { kind: InvalidRuleKind; weekdays: number[]; windows: InvalidWindow[]; start?: number | null; end?: number | null; carrierIds: number[] };

/** The rules of spec §5 that tie fields together, each on the field a form shows it under. */
function checkRule(b: Checked, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (new Set(b.carrierIds).size !== b.carrierIds.length) issue('carrierIds', 'errors.invalidRule.carriers');
  if (b.kind === 'schedule') {
    if (b.weekdays.length === 0) issue('weekdays', 'errors.invalidRule.weekdays');
    if (new Set(b.weekdays).size !== b.weekdays.length) issue('weekdays', 'errors.invalidRule.weekdays');
    if (b.windows.length === 0) issue('windows', 'errors.invalidRule.windows');
    else if (windowsOverlap(b.windows)) issue('windows', 'errors.invalidRule.windowsOverlap');
  }
  if (b.kind === 'period') {
    if (b.start == null) issue('start', 'errors.rule.required');
    if (b.end == null) issue('end', 'errors.rule.required');
    if (b.start != null && b.end != null) {
      // Spec §5 "start date not later than end date"; an empty period excludes nothing, so it is refused too.
      if (b.start >= b.end) issue('start', 'errors.rule.startAfterEnd');
      else if (b.end - b.start > INVALID_PERIOD_MAX_MS) issue('end', 'errors.invalidRule.periodTooLong');
    }
  }
}

export const invalidRuleAddBody = z.object({ ...ruleFields, customerId: z.number().int().positive().optional() }).superRefine(checkRule);
export const invalidRuleUpdateBody = z.object({ ...ruleFields, id: z.number({ error: 'errors.rule.required' }).int().positive().max(2_147_483_647) }).superRefine(checkRule);
export type InvalidRuleAddBody = z.input<typeof invalidRuleAddBody>;
export type InvalidRuleUpdateBody = z.input<typeof invalidRuleUpdateBody>;

export const invalidRuleStatusBody = z.object({
  ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1, { error: 'errors.selectAtLeastOne' }).max(500),
  enabled: z.boolean(),
});

export const invalidRuleRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  /** The customer's time zone, in which the windows are read ('+08:00'). */
  timeZone: z.string(),
  name: z.string(),
  kind: z.enum(INVALID_RULE_KINDS),
  weekdays: z.array(z.number().int()),
  windows: z.array(z.object({ from: z.number().int(), to: z.number().int() })),
  start: ms.nullable(),
  end: ms.nullable(),
  carriers: z.array(z.object({ id: z.number().int(), name: z.string() })),
  reasonId: z.number().int().nullable(),
  reasonZh: z.string().nullable(),
  reasonEn: z.string().nullable(),
  remark: z.string(),
  enabled: z.boolean(),
  createdAt: ms,
  createdBy: z.string(),
  updatedAt: ms,
  updatedBy: z.string(),
  /** Since when the definition shown is in force (its latest change or enabling); null while disabled. */
  inForceSince: ms.nullable(),
});
export type InvalidRuleRow = z.infer<typeof invalidRuleRow>;

const tag = 'invalidRule';
export const invalidRuleApi = {
  page: route({
    method: 'GET',
    path: '/service/invalidRule/page',
    tag,
    summary: "The invalid rules of the caller's customers",
    query: pageQuery({
      name: z.string().trim().max(50).optional(),
      kind: z.enum(INVALID_RULE_KINDS).optional(),
      enabled: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
      carrierId: id.optional(),
      customerId: id.optional(),
    }),
    result: pageOf(invalidRuleRow),
  }),
  detail: route({ method: 'GET', path: '/service/invalidRule/detail', tag, summary: 'One invalid rule', query: idQuery, result: invalidRuleRow }),
  add: route({ method: 'POST', path: '/service/invalidRule/add', tag, summary: 'Add an invalid rule; it applies from now on', body: invalidRuleAddBody, result: idResult }),
  update: route({
    method: 'PUT',
    path: '/service/invalidRule/update',
    tag,
    summary: 'Change an invalid rule; the change applies from now on, what it excluded before stays',
    body: invalidRuleUpdateBody,
    result: idResult,
  }),
  status: route({
    method: 'PUT',
    path: '/service/invalidRule/status',
    tag,
    summary: 'Enable or disable invalid rules (all or none), from now on',
    body: invalidRuleStatusBody,
    result: z.object({ changed: z.number().int() }),
  }),
  del: route({
    method: 'DELETE',
    path: '/service/invalidRule/del',
    tag,
    summary: 'Delete invalid rules (all or none): they stop now and leave the list; what they excluded stays excluded',
    query: idsQuery,
    result: deletedResult,
  }),
};
