import { z } from 'zod';
import { gatewayAddBody, gatewayUpdateBody, sensorBody, sensorUpdateBody } from '../schemas.js';
import { SENSOR_TYPES } from '../enums.js';
import { GAS_CODES } from '../deviceTypes.js';
import { liveSensor } from './carrier.js';
import { deletedResult, id, idParams, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Gateways and sensors of spec §3. */

const deviceStatus = z.coerce.number().int().min(0).max(2);

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
  power: z.string().nullable(),
  tcp: z.boolean().nullable(),
  lte: z.boolean().nullable(),
  flight: z.boolean().nullable(),
  ip: z.string().nullable(),
  wanIp: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  tz: z.string(),
  sensorCount: z.number().int(),
  createdAt: ms,
});
export type GatewayRow = z.infer<typeof gatewayRow>;

/** The one time a gateway's secret is shown: at enrolment and at a reset. */
export const gatewaySecret = z.object({ id: z.number().int(), sn: z.string(), secret: z.string() });

export const CONFIG_STATUSES = ['wait', 'configuring', 'configured', 'fail'] as const;
export type ConfigStatus = (typeof CONFIG_STATUSES)[number];

export const sensorRow = liveSensor.omit({ tempState: true, humState: true, inRange: true }).extend({
  description: z.string(),
  calibExpiry: z.string().nullable(),
  calibNotice: ms.nullable(),
  tz: z.string(),
  sampleInterval: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  carrierName: z.string().nullable(),
  gatewayName: z.string(),
  createdAt: ms,
  /** Set while the sensor is borrowed from another customer: when the loan ends (docs/devices.md "Lending"). */
  lentUntil: ms.nullable(),
  /** A gas detector's gas code (spec §3); null for other sensors. */
  gasCode: z.string().nullable(),
  /** Spec §3 config status, from its latest configuration command: never configured (wait), configuring, configured, fail. */
  configStatus: z.enum(CONFIG_STATUSES),
});
export type SensorRow = z.infer<typeof sensorRow>;

/** Stop or re-enable devices (spec §4: gateways and relays can be stopped or re-enabled; sensors too). */
export const deviceStatusBody = z.object({
  ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1, { error: 'errors.selectAtLeastOne' }).max(500),
  stopped: z.boolean(),
});
const statusChanged = z.object({ changed: z.number().int() });

const flag = z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true'));

export const gatewayApi = {
  page: route({
    method: 'GET',
    path: '/service/gateway/page',
    tag: 'gateway',
    summary: 'Gateways of the caller\'s scope, paged',
    query: pageQuery(
      { sn: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), status: deviceStatus.optional(), carrierId: id.optional(), customerId: id.optional() },
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
        power: z.string().nullable(),
        tcp: z.boolean().nullable(),
        lte: z.boolean().nullable(),
        flight: z.boolean().nullable(),
        ip: z.string().nullable(),
        wanIp: z.string().nullable(),
        lat: z.number().nullable(),
        lng: z.number().nullable(),
      }),
    ),
  }),
};

/** The sensor rows of spec §2's device menu: radio sensors, gas detectors (/device/gas), door magnets (/device/magnetism). */
export const SENSOR_KINDS = ['sensor', 'gas', 'magnet'] as const;
export type SensorKind = (typeof SENSOR_KINDS)[number];

const sensorFilters = {
  devNo: z.string().trim().max(30).optional(),
  status: deviceStatus.optional(),
  gatewayId: id.optional(),
  carrierId: id.optional(),
  bound: flag,
  /** Only the sensors borrowed from other customers (true) or only the caller's own (false). */
  borrowed: flag,
  customerId: id.optional(),
};

export const sensorApi = {
  page: route({
    method: 'GET',
    path: '/service/sensor/page',
    tag: 'sensor',
    summary: 'Sensors of the caller\'s scope with their latest values, paged',
    query: pageQuery(
      {
        ...sensorFilters,
        type: z.enum(SENSOR_TYPES).optional(),
        /** The menu's kinds: radio sensors (sensor), gas detectors (gas), door magnets (magnet). */
        kind: z.enum(SENSOR_KINDS).optional(),
      },
      ['devNo', 'type', 'status', 'lastTs', 'createdAt'],
    ),
    result: pageOf(sensorRow),
  }),
  detail: route({ method: 'GET', path: '/service/sensor/detail', tag: 'sensor', summary: 'One sensor', query: idQuery, result: sensorRow }),
  ofType: route({
    method: 'GET',
    path: '/service/sensor/lst/:type',
    tag: 'sensor',
    summary: 'Sensors of one type, for pickers',
    params: z.object({ type: z.enum(SENSOR_TYPES, { error: 'errors.rule.sensorType' }) }),
    result: z.array(
      z.object({
        id: z.number().int(),
        devNo: z.string(),
        type: z.enum(SENSOR_TYPES),
        status: z.number().int(),
        carrierId: z.number().int().nullable(),
        carrierName: z.string().nullable(),
        gatewayId: z.number().int(),
      }),
    ),
  }),
  add: route({ method: 'POST', path: '/service/sensor/add', tag: 'sensor', summary: 'Enrol a sensor', body: sensorBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/sensor/update', tag: 'sensor', summary: 'Change a sensor', body: sensorUpdateBody, result: idResult }),
  upt: route({ method: 'POST', path: '/service/sensor/upt', tag: 'sensor', summary: 'Change a sensor (the spec\'s name of update)', body: sensorUpdateBody, result: idResult }),
  /** Spec §7 sensor/importSensor: multipart, one .xlsx file of the template; all rows or none. */
  importSensor: route({
    method: 'POST',
    path: '/service/sensor/importSensor',
    tag: 'sensor',
    summary: 'Import sensors from an xlsx file of the template; a file with any bad row is refused whole, every bad row named',
    query: z.object({ customerId: id.optional() }),
    result: z.object({ imported: z.number().int() }),
  }),
  importTemplate: route({ method: 'GET', path: '/service/sensor/importTemplate', tag: 'sensor', summary: 'The xlsx template of the sensor import', result: z.unknown(), raw: 'file' }),
  setStatus: route({
    method: 'PUT',
    path: '/service/sensor/status',
    tag: 'sensor',
    summary: 'Stop sensors (their readings are refused and logged) or enable them again',
    body: deviceStatusBody,
    result: statusChanged,
  }),
  del: route({ method: 'DELETE', path: '/service/sensor/del', tag: 'sensor', summary: 'Delete sensors (their readings stay until retention)', query: idsQuery, result: deletedResult }),
};

/**
 * Gas detectors and door magnets (spec §2 /device/gas, /device/magnetism, §7 gas/import,
 * magnetism/import): sensor rows of type gas or magnet, under their own menu entries and function
 * codes (viewGas…, viewMagnetism…). The bodies are the sensor's; the type must be the kind's.
 */
function kindApi(kind: 'gas' | 'magnet', base: string, tag: string, what: string) {
  return {
    page: route({
      method: 'GET',
      path: `${base}/page`,
      tag,
      summary: `${what} of the caller's scope with their latest values, paged`,
      query: pageQuery(kind === 'gas' ? { ...sensorFilters, gasCode: z.enum(GAS_CODES).optional() } : sensorFilters, ['devNo', 'status', 'lastTs', 'createdAt']),
      result: pageOf(sensorRow),
    }),
    add: route({ method: 'POST', path: `${base}/add`, tag, summary: `Enrol one of the ${what.toLowerCase()}`, body: sensorBody, result: idResult }),
    update: route({ method: 'PUT', path: `${base}/update`, tag, summary: `Change one of the ${what.toLowerCase()}`, body: sensorUpdateBody, result: idResult }),
    setStatus: route({ method: 'PUT', path: `${base}/status`, tag, summary: `Stop ${what.toLowerCase()} (their readings are refused and logged) or enable them again`, body: deviceStatusBody, result: statusChanged }),
    del: route({ method: 'DELETE', path: `${base}/del`, tag, summary: `Delete ${what.toLowerCase()} (their readings stay until retention)`, query: idsQuery, result: deletedResult }),
    importFile: route({
      method: 'POST',
      path: `${base}/import`,
      tag,
      summary: `Import ${what.toLowerCase()} from an xlsx file of the template; a file with any bad row is refused whole, every bad row named`,
      query: z.object({ customerId: id.optional() }),
      result: z.object({ imported: z.number().int() }),
    }),
    importTemplate: route({ method: 'GET', path: `${base}/importTemplate`, tag, summary: `The xlsx template of the ${what.toLowerCase()} import`, result: z.unknown(), raw: 'file' }),
    kind,
  };
}

export const gasApi = kindApi('gas', '/service/gas', 'gas', 'Gas detectors');
export const magnetApi = kindApi('magnet', '/service/magnetism', 'magnetism', 'Door magnets');
