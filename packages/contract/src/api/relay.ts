import { z } from 'zod';
import * as r from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Relays (spec §3 Relay: number, name, type, MAC, reporting interval) and their switching
 * (§4 Device switch; device-protocol.md `down/output`). A switch is asked for in one of the
 * modes intelligent (the relay follows its carrier's condition: on while the carrier has an
 * ongoing exception), manual (a user's switching) or direct (switching that ignores the
 * condition), with a cancel time in seconds after which it ends (0 or blank: never); `cancel`
 * ends the running one. docs/devices.md "Relays".
 */

export const RELAY_TYPES = ['relay1'] as const;
export const SWITCH_MODES = ['intelligent', 'manual', 'direct'] as const;
export type SwitchMode = (typeof SWITCH_MODES)[number];
export const SWITCH_ENDS = ['start', 'terminate', 'complete', 'revert'] as const;
export const SWITCH_RESULTS = ['user', 'ignoreCondition', 'userTermination'] as const;

/** A MAC: six hex pairs, with or without separators (stored upper-case without them). */
const mac = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase().replace(/[:\-\s]/g, ''))
  .pipe(z.string().regex(/^([0-9A-F]{12})?$/, { error: 'errors.relay.mac' }));

export const relayBody = z.object({
  devNo: r.deviceNo,
  name: r.name(50),
  type: z.enum(RELAY_TYPES, { error: 'errors.relay.type' }).default('relay1'),
  mac: mac.default(''),
  /** §3 reporting interval, seconds. */
  reportInterval: z.number({ error: 'errors.relay.reportInterval' }).int({ error: 'errors.relay.reportInterval' }).min(10, { error: 'errors.relay.reportInterval' }).max(86400, { error: 'errors.relay.reportInterval' }).default(60),
  gatewayId: z.number().int().positive({ error: 'errors.rule.required' }),
  carrierId: z.number().int().positive().nullable().default(null),
  tz: r.timeZone.default('+08:00'),
});
export type RelayBody = z.infer<typeof relayBody>;

export const relaySwitchState = z.object({
  id: z.number().int(),
  mode: z.enum(SWITCH_MODES),
  turnOn: z.boolean(),
  startedAt: ms,
  /** When it ends by itself (its cancel time); null: only a new switch or a cancel ends it. */
  endsAt: ms.nullable(),
  conditionReached: z.boolean().nullable(),
});

export const relayRow = z.object({
  id: z.number().int(),
  devNo: z.string(),
  name: z.string(),
  type: z.string(),
  mac: z.string(),
  reportInterval: z.number().int(),
  gatewayId: z.number().int(),
  gatewaySn: z.string(),
  gatewayName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  /** Computed: stopped (2) by a user, else online (1) or offline (0) as its gateway. */
  status: z.number().int(),
  /** The output the gateway last confirmed; null before the first switch. */
  output: z.boolean().nullable(),
  outputAt: ms.nullable(),
  /** An output command is on its way (not yet acknowledged). */
  pending: z.boolean(),
  switch: relaySwitchState.nullable(),
  tz: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  createdAt: ms,
});
export type RelayRow = z.infer<typeof relayRow>;

export const switchBody = z
  .object({
    ids: z.array(id).min(1, { error: 'errors.selectAtLeastOne' }).max(100),
    mode: z.enum([...SWITCH_MODES, 'cancel'], { error: 'errors.relay.mode' }),
    /** The output to switch to (manual and direct). */
    on: z.boolean().optional(),
    /** §4: seconds after which the switch ends; 0 or blank never; not negative. */
    cancelTime: z.number({ error: 'errors.relay.cancelTime' }).int({ error: 'errors.relay.cancelTime' }).min(0, { error: 'errors.relay.cancelTime' }).max(31_536_000, { error: 'errors.relay.cancelTime' }).nullable().default(null),
  })
  .refine((b) => b.mode === 'cancel' || b.mode === 'intelligent' || b.on !== undefined, { error: 'errors.relay.on', path: ['on'] });
export type SwitchBody = z.infer<typeof switchBody>;

export const switchLogRow = z.object({
  id: z.number().int(),
  relayId: z.number().int(),
  devNo: z.string(),
  mode: z.enum(SWITCH_MODES),
  turnOn: z.boolean(),
  cancelAfterS: z.number().int().nullable(),
  startedAt: ms,
  endedAt: ms.nullable(),
  endKind: z.enum(SWITCH_ENDS).nullable(),
  result: z.enum(SWITCH_RESULTS),
  conditionReached: z.boolean().nullable(),
  operator: z.string(),
  endedBy: z.string().nullable(),
});
export type SwitchLogRow = z.infer<typeof switchLogRow>;

const tag = 'relay';
export const relayApi = {
  page: route({
    method: 'GET',
    path: '/service/relay/page',
    tag,
    summary: "Relays of the caller's scope with their output and running switch, paged",
    query: pageQuery(
      { devNo: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), status: z.coerce.number().int().min(0).max(2).optional(), carrierId: id.optional(), gatewayId: id.optional() },
      ['devNo', 'name', 'createdAt'],
    ),
    result: pageOf(relayRow),
  }),
  detail: route({ method: 'GET', path: '/service/relay/detail', tag, summary: 'One relay', query: idQuery, result: relayRow }),
  add: route({ method: 'POST', path: '/service/relay/add', tag, summary: 'Enrol a relay on a gateway', body: relayBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/relay/update', tag, summary: 'Change a relay', body: relayBody.safeExtend({ id }), result: idResult }),
  setStatus: route({
    method: 'PUT',
    path: '/service/relay/status',
    tag,
    summary: 'Stop relays (a running switch ends, none can start) or enable them again',
    body: z.object({ ids: z.array(id).min(1, { error: 'errors.selectAtLeastOne' }).max(500), stopped: z.boolean() }),
    result: z.object({ changed: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/relay/del', tag, summary: 'Delete relays with their switching history', query: idsQuery, result: deletedResult }),
  switch: route({
    method: 'POST',
    path: '/service/relay/switch',
    tag,
    summary: 'Switch relays (intelligent, manual, direct) or cancel their running switch; the outputs go to their gateways',
    body: switchBody,
    result: z.object({ switched: z.number().int(), published: z.number().int() }),
  }),
  switchLog: route({
    method: 'GET',
    path: '/service/relay/switchLog',
    tag,
    summary: "The relays' switching, newest first",
    query: pageQuery({ relayId: id.optional(), devNo: z.string().trim().max(30).optional() }, ['startedAt']),
    result: pageOf(switchLogRow),
  }),
};
