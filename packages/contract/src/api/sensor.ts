import { z } from 'zod';
import { sensorBody, sensorUpdateBody } from '../schemas.js';
import { SENSOR_TYPES } from '../enums.js';
import { GAS_CODES, SENSOR_KINDS } from '../deviceTypes.js';
import { liveSensor } from './carrier.js';
import { deviceStatusBody, deviceStatusFilter, statusChanged } from './device.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Sensors of spec §3, and the gas detectors and door magnets: sensors under their own menu entries. */

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

const flag = z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true'));

const sensorFilters = {
  devNo: z.string().trim().max(30).optional(),
  status: deviceStatusFilter.optional(),
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
