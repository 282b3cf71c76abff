import { z } from 'zod';
import { id, ms, pageOf, pageQuery, route } from './route.js';
import { busApi, busBodyFields, busRowFields } from './device.js';

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
  ...busBodyFields,
  type: z.enum(RELAY_TYPES, { error: 'errors.relay.type' }).default('relay1'),
  mac: mac.default(''),
  /** §3 reporting interval, seconds. Absent on a new relay: the "default transmission interval" parameter (relay_interval_seconds); absent on a change: kept. */
  reportInterval: z.number({ error: 'errors.relay.reportInterval' }).int({ error: 'errors.relay.reportInterval' }).min(10, { error: 'errors.relay.reportInterval' }).max(86400, { error: 'errors.relay.reportInterval' }).optional(),
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
  ...busRowFields,
  mac: z.string(),
  reportInterval: z.number().int(),
  /** The output the gateway last confirmed; null before the first switch. */
  output: z.boolean().nullable(),
  outputAt: ms.nullable(),
  /** An output command is on its way (not yet acknowledged). */
  pending: z.boolean(),
  switch: relaySwitchState.nullable(),
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
  ...busApi({
    base: '/service/relay',
    tag,
    one: 'relay',
    many: 'Relays',
    body: relayBody,
    update: relayBody.safeExtend({ id }),
    row: relayRow,
    filters: { gatewayId: id.optional() },
    notes: { page: ' with their output and running switch', setStatus: ' (a running switch ends, none can start)', del: ' with their switching history' },
  }),
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
