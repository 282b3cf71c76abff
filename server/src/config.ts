import { z } from 'zod';
import path from 'node:path';
import { REPLICA_ID_PATTERN } from './platform/cluster/replica.js';

/** Environment → typed configuration, validated once at start. README lists every variable. */
const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATA_DIR: z.string().default('./data'),
  /** Where the backup job writes (docs/operations.md "Backups"); default DATA_DIR/backups. */
  BACKUP_DIR: z.string().optional().or(z.literal('').transform(() => undefined)),
  /** The daily backup's time of day, server local time (TZ). */
  BACKUP_AT: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59').default('02:00'),
  DATABASE_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  MQTT_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  /** With MQTT_URL: exclusive (one persistent session, the default) or shared ($share/coldwatch/…, several replicas). */
  MQTT_SUBSCRIPTION: z.enum(['exclusive', 'shared']).default('exclusive'),
  /** This console's name among the replicas of one database (docs/scaling.md); default host name and HTTP port. */
  REPLICA_ID: z
    .string()
    .regex(REPLICA_ID_PATTERN, 'letters, digits, dot, underscore and hyphen, 1 to 40 of them')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Seconds without a message from any gateway, while gateways had been reporting, before ingest is called deaf; 0 = never. */
  INGEST_SILENCE_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Seconds a new MQTT connection has to finish CONNECT on the embedded broker (docs/ingest.md "Limits that keep ingest running"). */
  MQTT_CONNECT_TIMEOUT_S: z.coerce.number().int().min(1).max(60).default(5),
  /** Connections from one address (IPv6: one /64) that may be in CONNECT at once on the embedded broker; more wait, unread. */
  MQTT_CONNECTING_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(64),
  /** Per gateway: messages per second and the burst above it; 0 = no limit. MQTT's PUBACK waits, HTTP answers 429. */
  INGEST_GATEWAY_MESSAGES_PER_S: z.coerce.number().min(0).max(1_000_000).default(200),
  INGEST_GATEWAY_MESSAGE_BURST: z.coerce.number().int().min(1).max(10_000_000).default(2_000),
  /** Per gateway: readings per second and the burst above it; 0 = no limit. */
  INGEST_GATEWAY_READINGS_PER_S: z.coerce.number().min(0).max(10_000_000).default(5_000),
  INGEST_GATEWAY_READING_BURST: z.coerce.number().int().min(1).max(100_000_000).default(50_000),
  /** Seconds a back-filled alarm window waits for more of its gateway's buffer before it is judged; 0 = judge at once (docs/alarms.md). */
  ALARM_BACKFILL_HOLD_S: z.coerce.number().min(0).max(600).default(60),
  /** Readings one HTTP ingest call may carry (413 above it). */
  INGEST_HTTP_MAX_READINGS: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  SMTP_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('Coldwatch <alarm@coldwatch.local>'),
  /** SMS and voice providers (alarm/channels/providers.ts): an http(s) webhook or aliyun://key:secret@host?…; unset = rows failed visibly. */
  SMS_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  SMS_WEBHOOK_BODY: z.string().optional(),
  SMS_WEBHOOK_SECRET: z.string().optional(),
  VOICE_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  VOICE_WEBHOOK_BODY: z.string().optional(),
  VOICE_WEBHOOK_SECRET: z.string().optional(),
  /** Seconds one call to an SMS or voice provider may take before it counts as a temporary failure. */
  NOTICE_HTTP_TIMEOUT_S: z.coerce.number().min(0.1).max(120).default(10),
  LOGIN_CAPTCHA: z.enum(['on', 'off']).default('on'),
  /** Sign-in attempts (login, captcha, registration, login QR) one address may make per minute. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Believe X-Forwarded-* from the reverse proxy in front (true, a hop count, or addresses). */
  TRUST_PROXY: z.string().optional(),
  /** When set, GET /metrics needs `Authorization: Bearer <this>`. */
  METRICS_TOKEN: z.string().min(8).optional(),
  /** `off`: the "not for GxP records" mode, where records may be kept less than 5 years (docs/compliance.md). */
  GXP_RECORDS: z.enum(['on', 'off']).default('on'),
  DEMO: z.enum(['0', '1']).default('0'),
  ROOT_PASSWORD: z.string().min(6).optional(),
  SIMULATOR: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.string().url().optional(),
});

/** What one gateway may send (ingest/pacer.ts): a rate of 0 turns that bucket off. */
export interface IngestLimits {
  messagesPerS: number;
  messageBurst: number;
  readingsPerS: number;
  readingBurst: number;
  /** Readings one HTTP ingest call may carry. */
  httpMaxReadings: number;
}

/** One SMS or voice provider: its URL (the scheme picks the provider), a webhook's body template and signing secret. */
export interface ProviderConfig {
  url: string;
  body?: string;
  secret?: string;
}

export interface Config {
  /** HTTP port, and whether the user chose it (a chosen port that is taken is an error). */
  port: number;
  portExplicit: boolean;
  mqttPort: number;
  mqttPortExplicit: boolean;
  dataDir: string;
  /** The backup job's folder: BACKUP_DIR, else DATA_DIR/backups. */
  backupDir: string;
  /** When the daily backup runs (HH:MM, local time). */
  backupAt: string;
  databaseUrl?: string;
  mqttUrl?: string;
  mqttSubscription: 'exclusive' | 'shared';
  /** REPLICA_ID when set; main.ts defaults it from the host name and the HTTP port. */
  replicaId?: string;
  ingestSilenceS: number;
  /** The embedded broker's guard before login (ingest/connect-gate.ts). */
  mqttConnectTimeoutS: number;
  mqttConnectingPerAddress: number;
  /** Per-gateway rate limits of ingest (ingest/pacer.ts) and the HTTP batch cap. */
  ingestLimits: IngestLimits;
  /** How long a back-filled alarm window waits for the rest of its buffer (alarm/quiet.ts). */
  alarmBackfillHoldMs: number;
  smtpUrl?: string;
  mailFrom: string;
  /** The SMS and voice providers (alarm/channels): never shown on a page (they hold secrets). */
  sms?: ProviderConfig;
  voice?: ProviderConfig;
  noticeHttpTimeoutMs: number;
  loginCaptcha: boolean;
  /** Sign-in calls per minute per client address (the QR status poll gets six times as many). */
  loginRateLimit: number;
  /** Fastify's trustProxy: false unless TRUST_PROXY is set. */
  trustProxy: boolean | string;
  metricsToken?: string;
  /** false in the "not for GxP records" mode: record retention below 5 years is allowed. */
  gxpRecords: boolean;
  demo: boolean;
  rootPassword?: string;
  simulator: boolean;
  logLevel: string;
  publicUrl?: string;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const demo = e.DEMO === '1';
  if (!demo && !e.ROOT_PASSWORD && !source.VITEST) {
    // Without demo data nobody could log in: the root account needs a password.
    throw new Error('DEMO=0 needs ROOT_PASSWORD (at least 6 characters) for the platform root account "admin".');
  }
  return {
    port: e.PORT ?? 8080,
    portExplicit: e.PORT !== undefined,
    mqttPort: e.MQTT_PORT ?? 1883,
    mqttPortExplicit: e.MQTT_PORT !== undefined,
    dataDir: path.resolve(e.DATA_DIR),
    backupDir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
    backupAt: e.BACKUP_AT,
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttSubscription: e.MQTT_SUBSCRIPTION,
    replicaId: e.REPLICA_ID,
    ingestSilenceS: e.INGEST_SILENCE_S,
    mqttConnectTimeoutS: e.MQTT_CONNECT_TIMEOUT_S,
    mqttConnectingPerAddress: e.MQTT_CONNECTING_PER_ADDRESS,
    ingestLimits: {
      messagesPerS: e.INGEST_GATEWAY_MESSAGES_PER_S,
      messageBurst: e.INGEST_GATEWAY_MESSAGE_BURST,
      readingsPerS: e.INGEST_GATEWAY_READINGS_PER_S,
      readingBurst: e.INGEST_GATEWAY_READING_BURST,
      httpMaxReadings: e.INGEST_HTTP_MAX_READINGS,
    },
    alarmBackfillHoldMs: Math.round(e.ALARM_BACKFILL_HOLD_S * 1000),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sms: e.SMS_URL ? { url: e.SMS_URL, body: e.SMS_WEBHOOK_BODY, secret: e.SMS_WEBHOOK_SECRET } : undefined,
    voice: e.VOICE_URL ? { url: e.VOICE_URL, body: e.VOICE_WEBHOOK_BODY, secret: e.VOICE_WEBHOOK_SECRET } : undefined,
    noticeHttpTimeoutMs: Math.round(e.NOTICE_HTTP_TIMEOUT_S * 1000),
    loginCaptcha: e.LOGIN_CAPTCHA === 'on',
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: !e.TRUST_PROXY || e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY,
    gxpRecords: e.GXP_RECORDS === 'on',
    demo,
    rootPassword: e.ROOT_PASSWORD,
    simulator: e.SIMULATOR ? e.SIMULATOR === '1' : demo,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL,
  };
}
