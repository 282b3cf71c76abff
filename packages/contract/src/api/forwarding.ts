import { z } from 'zod';
import { code, name, text } from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Forwarding (spec §2 /sys/forwarding, §3 Forwarding server, Forward setting, Platform, §7
 * forwardSet/*; docs/forwarding.md). A customer's readings (and, where chosen, its exceptions)
 * are sent on to remote servers: an MQTT broker or an HTTP receiver, directly or as a
 * supervision platform's (its code, vendor, app id and signing key). A forward setting binds a
 * carrier or a sensor to one of them. The spec's forwardSet/* are the servers; platforms and
 * bindings follow the same pattern under forwardPlatform/* and forwardBind/* (DESIGN.md).
 */

export const FORWARD_TYPES = ['mqtt', 'http'] as const;
export type ForwardType = (typeof FORWARD_TYPES)[number];

/** §5: timeout 0-30 s, heartbeat 0-60 s, topic at most 64 characters; port digits only (1..65535). */
export const FORWARD_LIMITS = { timeoutS: 30, heartbeatS: 60, topic: 64, portMax: 65535 } as const;

const int = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
/** A hostname or IPv4/IPv6 literal (§5 "IP format", or a domain name). */
const host = z
  .string({ error: 'errors.rule.required' })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .max(255, { error: 'errors.rule.maxLength255' })
  .regex(/^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/, { error: 'errors.forwarding.host' });
const topic = z.string().trim().max(FORWARD_LIMITS.topic, { error: 'errors.forwarding.topic' }).regex(/^[^#+\s]*$/, { error: 'errors.forwarding.topicChars' });
/** A secret as typed: empty on update keeps the stored one (it is never sent back to be edited). */
const secret = z.string().max(128, { error: 'errors.rule.maxLength100' });

export const forwardServerBody = z
  .object({
    /** Whose server (a platform or proxy user names the customer; a customer's user makes its own). */
    customerId: id.optional(),
    type: z.enum(FORWARD_TYPES, { error: 'errors.forwarding.type' }),
    name: name(50),
    host,
    port: int(1, FORWARD_LIMITS.portMax, 'errors.forwarding.port'),
    tls: z.boolean().default(false),
    /** HTTP: the path of the receiver's URI (starts with /). */
    path: z.string().trim().max(255, { error: 'errors.rule.maxLength255' }).regex(/^(\/[^\s?#]*)?$/, { error: 'errors.forwarding.path' }).default(''),
    clientId: text(64).regex(/^[A-Za-z0-9_.:-]*$/, { error: 'errors.forwarding.clientId' }).default(''),
    username: text(64).default(''),
    password: secret.default(''),
    qos: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'errors.forwarding.qos' }).default(1),
    timeoutS: int(0, FORWARD_LIMITS.timeoutS, 'errors.forwarding.timeout').default(10),
    heartbeatS: int(0, FORWARD_LIMITS.heartbeatS, 'errors.forwarding.heartbeat').default(30),
    subTopic: topic.default(''),
    pubTopic: topic.default(''),
    enabled: z.boolean().default(true),
  })
  .refine((b) => b.type !== 'mqtt' || b.pubTopic.length > 0, { error: 'errors.forwarding.pubTopicRequired', path: ['pubTopic'] });
export type ForwardServerBody = z.input<typeof forwardServerBody>;
export const forwardServerUpdate = forwardServerBody.and(z.object({ id }));

/** What the forwarder reports of a server (docs/forwarding.md "Status"). */
export const forwardStatus = z.object({
  connected: z.boolean(),
  lastForwardedAt: ms.nullable(),
  forwarded: z.number().int(),
  /** Readings and exceptions committed but not yet acknowledged by the remote. */
  backlog: z.number().int(),
  lastError: z.string(),
  lastErrorAt: ms.nullable(),
});
export type ForwardStatus = z.infer<typeof forwardStatus>;

export const forwardServerRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  type: z.enum(FORWARD_TYPES),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  path: z.string(),
  clientId: z.string(),
  username: z.string(),
  /** Whether a password is stored; the password itself never leaves the server. */
  hasPassword: z.boolean(),
  qos: z.number().int(),
  timeoutS: z.number().int(),
  heartbeatS: z.number().int(),
  subTopic: z.string(),
  pubTopic: z.string(),
  enabled: z.boolean(),
  bindings: z.number().int(),
  status: forwardStatus,
  createdAt: ms,
});
export type ForwardServerRow = z.infer<typeof forwardServerRow>;

export const forwardPlatformBody = z.object({
  customerId: id.optional(),
  serverId: id,
  code: code(20),
  name: name(50),
  vendorCode: z.string().trim().max(20, { error: 'errors.rule.maxLength20' }).regex(/^[A-Za-z0-9_]*$/, { error: 'errors.rule.code' }).default(''),
  appId: z.string({ error: 'errors.rule.required' }).trim().min(1, { error: 'errors.rule.required' }).max(64, { error: 'errors.forwarding.appId' }),
  key: secret.default(''),
});
export type ForwardPlatformBody = z.input<typeof forwardPlatformBody>;
export const forwardPlatformUpdate = forwardPlatformBody.and(z.object({ id }));

export const forwardPlatformRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  serverId: z.number().int(),
  serverName: z.string(),
  code: z.string(),
  name: z.string(),
  vendorCode: z.string(),
  appId: z.string(),
  hasKey: z.boolean(),
  createdAt: ms,
});
export type ForwardPlatformRow = z.infer<typeof forwardPlatformRow>;

/** A forward setting: a carrier (its forwarding setting, §3) or a sensor, to a server or a platform. */
export const forwardBindBody = z
  .object({
    serverId: id.optional(),
    platformId: id.optional(),
    carrierId: id.optional(),
    sensorId: id.optional(),
    exceptions: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .refine((b) => (b.serverId === undefined) !== (b.platformId === undefined), { error: 'errors.forwarding.target', path: ['serverId'] })
  .refine((b) => (b.carrierId === undefined) !== (b.sensorId === undefined), { error: 'errors.forwarding.subject', path: ['carrierId'] });
export type ForwardBindBody = z.input<typeof forwardBindBody>;
export const forwardBindUpdate = z.object({ id, exceptions: z.boolean(), enabled: z.boolean() });

export const forwardBindRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  serverId: z.number().int(),
  serverName: z.string(),
  platformId: z.number().int().nullable(),
  platformName: z.string().nullable(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  sensorId: z.number().int().nullable(),
  devNo: z.string().nullable(),
  exceptions: z.boolean(),
  enabled: z.boolean(),
  /** Sampling time of the last reading sent. */
  cursorTs: ms,
  createdAt: ms,
});
export type ForwardBindRow = z.infer<typeof forwardBindRow>;

/** The servers and platforms a setting may point at (spec §7 "forward list"). */
export const forwardTarget = z.object({ kind: z.enum(['server', 'platform']), id: z.number().int(), name: z.string(), customerId: z.number().int() });

/**
 * What goes to the remote for each reading (docs/forwarding.md "Messages"): JSON, one message per
 * reading on MQTT, a batch `{platform?, items: [...]}` per request on HTTP. `seq` is the reading's
 * place in its carrier's stream, so a receiver can drop a duplicate of at-least-once delivery.
 */
export interface ForwardedReading {
  kind: 'reading';
  customer: string;
  carrier: string | null;
  carrierId: number | null;
  sensor: string;
  ts: number;
  temp: number | null;
  hum: number | null;
  volt: number | null;
}

const tag = 'forwarding';
const pageServers = pageQuery({ name: z.string().trim().max(50).optional(), type: z.enum(FORWARD_TYPES).optional(), customerId: id.optional() });
export const forwardingApi = {
  page: route({ method: 'GET', path: '/service/forwardSet/page', tag, summary: 'Forwarding servers of the caller\'s customers, with their status', query: pageServers, result: pageOf(forwardServerRow) }),
  detail: route({ method: 'GET', path: '/service/forwardSet/detail', tag, summary: 'One forwarding server (never its password)', query: idQuery, result: forwardServerRow }),
  add: route({ method: 'POST', path: '/service/forwardSet/add', tag, summary: 'Add a forwarding server', body: forwardServerBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/forwardSet/update', tag, summary: 'Change a forwarding server (an empty password keeps the stored one)', body: forwardServerUpdate, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/forwardSet/del', tag, summary: 'Delete forwarding servers no platform or setting uses', query: idsQuery, result: deletedResult }),
  targets: route({ method: 'GET', path: '/service/share/forward', tag, summary: 'The servers and platforms a forward setting may use', result: z.array(forwardTarget) }),
  platformPage: route({
    method: 'GET',
    path: '/service/forwardPlatform/page',
    tag,
    summary: 'Supervision platforms of the caller\'s customers',
    query: pageQuery({ name: z.string().trim().max(50).optional(), customerId: id.optional() }),
    result: pageOf(forwardPlatformRow),
  }),
  platformDetail: route({ method: 'GET', path: '/service/forwardPlatform/detail', tag, summary: 'One platform (never its key)', query: idQuery, result: forwardPlatformRow }),
  platformAdd: route({ method: 'POST', path: '/service/forwardPlatform/add', tag, summary: 'Add a platform', body: forwardPlatformBody, result: idResult }),
  platformUpdate: route({ method: 'PUT', path: '/service/forwardPlatform/update', tag, summary: 'Change a platform (an empty key keeps the stored one)', body: forwardPlatformUpdate, result: idResult }),
  platformDel: route({ method: 'DELETE', path: '/service/forwardPlatform/del', tag, summary: 'Delete platforms no setting uses', query: idsQuery, result: deletedResult }),
  bindPage: route({
    method: 'GET',
    path: '/service/forwardBind/page',
    tag,
    summary: 'Forward settings: carriers and sensors bound to a server or platform',
    query: pageQuery({ serverId: id.optional(), carrierId: id.optional() }),
    result: pageOf(forwardBindRow),
  }),
  bindAdd: route({ method: 'POST', path: '/service/forwardBind/add', tag, summary: 'Bind a carrier or a sensor (forwarding starts from now)', body: forwardBindBody, result: idResult }),
  bindUpdate: route({ method: 'PUT', path: '/service/forwardBind/update', tag, summary: 'Forward exceptions too, pause or resume a setting', body: forwardBindUpdate, result: idResult }),
  bindDel: route({ method: 'DELETE', path: '/service/forwardBind/del', tag, summary: 'Remove forward settings', query: idsQuery, result: deletedResult }),
};
