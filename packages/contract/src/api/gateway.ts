import { z } from 'zod';
import { gatewayAddBody, gatewayUpdateBody } from '../schemas.js';
import { liveSensor } from './carrier.js';
import { deviceStatusBody, deviceStatusFilter, statusChanged } from './device.js';
import { deletedResult, id, idParams, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Gateways of spec §3: enrolment, their secret, status and heartbeat history. */

/** What a heartbeat reports (device-protocol.md): a gateway row has its latest, the history each one. */
const heartbeatFields = {
  power: z.string().nullable(),
  tcp: z.boolean().nullable(),
  lte: z.boolean().nullable(),
  flight: z.boolean().nullable(),
  ip: z.string().nullable(),
  wanIp: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
};

export const gatewayRow = z.object({
  id: z.number().int(),
  sn: z.string(),
  name: z.string(),
  nickname: z.string(),
  type: z.string(),
  status: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  lastSeenAt: ms.nullable(),
  ...heartbeatFields,
  tz: z.string(),
  sensorCount: z.number().int(),
  createdAt: ms,
});
export type GatewayRow = z.infer<typeof gatewayRow>;

/** The one time a gateway's secret is shown: at enrolment and at a reset. */
export const gatewaySecret = z.object({ id: z.number().int(), sn: z.string(), secret: z.string() });

export const gatewayApi = {
  page: route({
    method: 'GET',
    path: '/service/gateway/page',
    tag: 'gateway',
    summary: 'Gateways of the caller\'s scope, paged',
    query: pageQuery(
      { sn: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), status: deviceStatusFilter.optional(), carrierId: id.optional(), customerId: id.optional() },
      ['sn', 'name', 'status', 'lastSeenAt', 'createdAt'],
    ),
    result: pageOf(gatewayRow),
  }),
  detail: route({ method: 'GET', path: '/service/gateway/detail', tag: 'gateway', summary: 'One gateway (never its secret)', query: idQuery, result: gatewayRow }),
  withSensors: route({
    method: 'GET',
    path: '/service/gateway/:id',
    tag: 'gateway',
    summary: 'One gateway with the sensors that report through it',
    params: idParams,
    result: gatewayRow.extend({ sensors: z.array(liveSensor.omit({ tempState: true, humState: true, inRange: true })) }),
  }),
  add: route({ method: 'POST', path: '/service/gateway/add', tag: 'gateway', summary: 'Enrol a gateway; the answer shows its secret once', body: gatewayAddBody, result: gatewaySecret }),
  update: route({ method: 'PUT', path: '/service/gateway/update', tag: 'gateway', summary: 'Change a gateway', body: gatewayUpdateBody, result: idResult }),
  resetSecret: route({
    method: 'POST',
    path: '/service/gateway/resetSecret',
    tag: 'gateway',
    summary: 'Issue a new secret; the old one is refused at once and open sessions are closed',
    query: idQuery,
    result: gatewaySecret,
  }),
  setStatus: route({
    method: 'PUT',
    path: '/service/gateway/status',
    tag: 'gateway',
    summary: "Stop gateways (their messages are refused and logged, open sessions closed) or enable them again",
    body: deviceStatusBody,
    result: statusChanged,
  }),
  del: route({ method: 'DELETE', path: '/service/gateway/del', tag: 'gateway', summary: 'Delete gateways that carry no sensors', query: idsQuery, result: deletedResult }),
  /** Spec §3 Gateway "heartbeat history": kept while the parameter gateway_heartbeat_history is on. */
  heartbeats: route({
    method: 'GET',
    path: '/service/gateway/heartbeats',
    tag: 'gateway',
    summary: "A gateway's heartbeat history, newest first",
    query: pageQuery({ gatewayId: id }, []),
    result: pageOf(
      z.object({
        id: z.number().int(),
        ts: ms,
        receivedAt: ms,
        ...heartbeatFields,
      }),
    ),
  }),
};
