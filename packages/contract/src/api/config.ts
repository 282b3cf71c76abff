import { z } from 'zod';
import { id, idsQuery, deletedResult, ms, pageOf, pageQuery, route } from './route.js';

/**
 * Parameter configuration of sensors over MQTT (spec §3 Sensor, Network parameters, Sensor
 * collection parameters; §4 config states; §5 rules; device-protocol.md `down/config`, `up/ack`).
 * A configuration becomes one command per device, published to its gateway; prepare → issuing
 * (published) → end (acked ok) or fail (acked fail, or no ack within the sensor configuration
 * timeout). `POST /service/sensor/config` issues it; the config log (/OperateRecord) lists them.
 */

const int = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
/** §5 intervals 1..65535 s, whole numbers; the collection interval not below 10 s. */
const interval = int(1, 65535, 'errors.config.interval');
/** A change threshold: like a temperature, at most two decimals. */
const threshold = z
  .number({ error: 'errors.config.threshold' })
  .min(0, { error: 'errors.config.threshold' })
  .max(327.67, { error: 'errors.config.threshold' })
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'errors.rule.twoDecimals' });

export const collectParams = z.object({
  sampleInterval: int(10, 65535, 'errors.config.sampleInterval').optional(),
  exceptionSampleInterval: interval.optional(),
  tempSampleInterval: interval.optional(),
  humSampleInterval: interval.optional(),
  tempChange: threshold.optional(),
  humChange: threshold.optional(),
  tempMinReport: interval.optional(),
  tempMaxReport: interval.optional(),
  humMinReport: interval.optional(),
  humMaxReport: interval.optional(),
});
export type CollectParams = z.infer<typeof collectParams>;

const hex = (n: number, error: string) => z.string({ error }).regex(new RegExp(`^[0-9A-Fa-f]{${n}}$`), { error });
export const networkParams = z.object({
  extPanId: hex(16, 'errors.config.extPanId').optional(),
  channel: int(11, 26, 'errors.config.channel').optional(),
  joinAttempt: int(1, 86400, 'errors.config.joinAttempt').optional(),
  devEui: hex(10, 'errors.config.devEui').optional(),
  appEui: hex(16, 'errors.config.appEui').optional(),
  appKey: hex(32, 'errors.config.appKey').optional(),
  /** Channel numbers 0..31, separated by spaces. */
  channelMask: z
    .string({ error: 'errors.config.channelMask' })
    .trim()
    .regex(/^(\d{1,2})( +\d{1,2})*$/, { error: 'errors.config.channelMask' })
    .refine((v) => v.split(/ +/).every((c) => Number(c) <= 31), { error: 'errors.config.channelMask' })
    .optional(),
  accessInterval: int(300, 86400, 'errors.config.accessInterval').optional(),
  txPower: int(0, 20, 'errors.config.txPower').optional(),
  channelPage: int(0, 255, 'errors.config.channelPage').optional(),
});
export type NetworkParams = z.infer<typeof networkParams>;

export const CONFIG_KINDS = ['collect', 'network'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];

/** The radio of a sensor type, for its rules: ZigBee (and its second generation), LoRa, Zeta, 4G. */
export const radioOf = (type: string) => (type.startsWith('zigbee') || type.startsWith('zbp2') ? 'zigbee' : type.startsWith('lora') ? 'lora' : type.startsWith('zeta') ? 'zeta' : '4g');

/**
 * §5 relations of the collection parameters, for a device of this type: ZigBee's exception
 * interval not above its normal interval; LoRa and Zeta, temperature and humidity each, min
 * report ≤ sampling ≤ max report. Answers the field and message of the first broken one.
 */
export function collectProblem(type: string, p: CollectParams): { field: keyof CollectParams; error: string } | null {
  const radio = radioOf(type);
  if (radio === 'zigbee' && p.exceptionSampleInterval !== undefined && p.sampleInterval !== undefined && p.exceptionSampleInterval > p.sampleInterval) {
    return { field: 'exceptionSampleInterval', error: 'errors.config.exceptionAboveNormal' };
  }
  if (radio === 'lora' || radio === 'zeta') {
    for (const m of ['temp', 'hum'] as const) {
      const min = p[`${m}MinReport`];
      const max = p[`${m}MaxReport`];
      const sample = p[`${m}SampleInterval`] ?? p.sampleInterval;
      if (min !== undefined && max !== undefined && min > max) return { field: `${m}MinReport`, error: 'errors.config.minAboveMax' };
      if (min !== undefined && sample !== undefined && min > sample) return { field: `${m}MinReport`, error: 'errors.config.minAboveSample' };
      if (max !== undefined && sample !== undefined && max < sample) return { field: `${m}MaxReport`, error: 'errors.config.maxBelowSample' };
    }
  }
  return null;
}

export const configBody = z
  .object({
    ids: z.array(id).min(1, { error: 'errors.config.noDevice' }).max(500),
    kind: z.enum(CONFIG_KINDS),
    collect: collectParams.optional(),
    network: networkParams.optional(),
  })
  .refine((b) => Object.keys((b.kind === 'collect' ? b.collect : b.network) ?? {}).length > 0, { error: 'errors.config.nothing', path: ['kind'] });
export type ConfigBody = z.infer<typeof configBody>;

export const CONFIG_STATES = ['prepare', 'issuing', 'end', 'fail'] as const;
export type ConfigState = (typeof CONFIG_STATES)[number];

export const configLogRow = z.object({
  id: z.number().int(),
  sceneName: z.string().nullable(),
  devNo: z.string().nullable(),
  deviceType: z.string().nullable(),
  gatewaySn: z.string(),
  /** Order type: collect or network parameters (config), or an output switch. */
  orderType: z.string(),
  content: z.record(z.string(), z.unknown()),
  status: z.enum(CONFIG_STATES),
  detail: z.string(),
  operator: z.string(),
  customerName: z.string(),
  createdAt: ms,
  issuedAt: ms.nullable(),
  finishedAt: ms.nullable(),
});
export type ConfigLogRow = z.infer<typeof configLogRow>;

export const configApi = {
  issue: route({
    method: 'POST',
    path: '/service/sensor/config',
    tag: 'config',
    summary: 'Configure sensors over MQTT: one command per device (same type and customer), published to its gateway',
    body: configBody,
    result: z.object({ commands: z.number().int(), published: z.number().int() }),
  }),
  log: route({
    method: 'GET',
    path: '/service/sensor/configLog',
    tag: 'config',
    summary: 'The configuration log (/OperateRecord), newest first',
    query: pageQuery({ devNo: z.string().trim().max(30).optional(), sensorId: id.optional(), status: z.enum(CONFIG_STATES).optional() }, ['createdAt']),
    result: pageOf(configLogRow),
  }),
  del: route({
    method: 'DELETE',
    path: '/service/sensor/configLog/del',
    tag: 'config',
    summary: 'Delete finished configuration commands (one still configuring cannot be deleted)',
    query: idsQuery,
    result: deletedResult,
  }),
};
