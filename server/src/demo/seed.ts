import { sensorMeasuresHumidity, type SensorType } from '@coldwatch/contract';
import type { Db, Queryable } from '../platform/db/client.js';
import { ensureRoot, createCustomerWithAdmin } from '../platform/seed/root.js';
import { generateSeries, seedOf, type SensorProfile } from './history.js';
import { markForRollup } from '../ingest/rollup.js';
import { generateGatewaySecret, hashGatewaySecret } from '../ingest/secret.js';
import { Partitions } from '../ingest/partitions.js';
import { DEMO_PLACES } from './route.js';

/**
 * Demo data for `npm start` (DEMO=1): the platform administrator admin/admin123 and the
 * customer "Demo Hospital" (code DEMO, administrator demo/demo123) with an organisation
 * tree, carriers and zones, simulated gateways and sensors, contacts, seven days of history
 * and the exceptions that history causes. Idempotent: a database that already holds the
 * demo customer is left alone.
 */

export const DEMO_CUSTOMER = { name: 'Demo Hospital', code: 'DEMO', account: 'demo', password: 'demo123' } as const;
export const DEMO_ROOT_PASSWORD = 'admin123';

/** The gateway left for people to drive by hand (README): the simulator never touches it. */
export const FEED_GATEWAY = { sn: 'DEMO0000FEED', secret: 'feedfeed', dev: 'T9000001', carrier: 'Test Fridge', email: 'coldroom@example.com' } as const;

/** The `setting` row that keeps the simulated gateways' secrets, so the simulator can log in after a restart. */
export const SECRETS_SETTING = 'demo.gateway_secrets';
/** The `setting` row written last in the seed transaction: its presence means the demo is complete. */
const SEEDED_SETTING = 'demo.seeded_at';

/** History resolution and span. */
const HISTORY_DAYS = 7;
const HISTORY_STEP_MS = 3 * 60_000;

interface SceneDef {
  code: string;
  label: string;
  parent?: string;
  lat: number;
  lng: number;
}

interface SensorDef {
  dev: string;
  type: SensorType;
  description: string;
  profile: SensorProfile;
}

interface CarrierDef {
  name: string;
  scene: string;
  type: 1 | 2 | 3 | 4;
  gateway: string;
  temp: [number, number];
  hum?: [number, number];
  contacts: string[];
  sensors: SensorDef[];
}

const SCENES: SceneDef[] = [
  { code: 'DEMO-MB', label: 'Main Building', lat: 31.2304, lng: 121.4737 },
  { code: 'DEMO-MB-PH', label: 'Pharmacy', parent: 'DEMO-MB', lat: 31.2305, lng: 121.4739 },
  { code: 'DEMO-MB-VR', label: 'Vaccination Room', parent: 'DEMO-MB', lat: 31.2303, lng: 121.4736 },
  { code: 'DEMO-MB-LAB', label: 'Laboratory', parent: 'DEMO-MB', lat: 31.2306, lng: 121.4735 },
  { code: 'DEMO-CS', label: 'Cold Storage', lat: 31.2281, lng: 121.4702 },
  { code: 'DEMO-FL', label: 'Fleet', lat: 31.2252, lng: 121.4801 },
];

const GATEWAYS = [
  { sn: 'DE3000000001', name: 'Main Building gateway', scene: 'DEMO-MB', type: 'gw2' },
  { sn: 'DE3000000002', name: 'Laboratory gateway', scene: 'DEMO-MB-LAB', type: 'gw2' },
  { sn: 'DE3000000003', name: 'Cold Storage gateway', scene: 'DEMO-CS', type: 'gw2' },
  { sn: 'DE3000000004', name: 'Van 01 gateway', scene: 'DEMO-FL', type: 'gw1_gps' },
] as const;

const CONTACTS = [
  { key: 'li', name: 'Li Wei', gender: 1, phone: '13800000001', email: 'li.wei@example.com', group: 'Pharmacy' },
  { key: 'zhang', name: 'Zhang Min', gender: 0, phone: '13800000002', email: 'zhang.min@example.com', group: 'Vaccination' },
  { key: 'wang', name: 'Wang Fang', gender: 0, phone: '13800000003', email: 'wang.fang@example.com', group: 'Laboratory' },
  { key: 'chen', name: 'Chen Jun', gender: 1, phone: '13800000004', email: 'chen.jun@example.com', group: 'Logistics' },
  { key: 'coldroom', name: 'Cold Room Duty', gender: 1, phone: '13800000005', email: FEED_GATEWAY.email, group: 'Duty' },
] as const;

const fridge = (extra: Partial<SensorProfile> = {}): SensorProfile => ({
  temp: 5,
  dailyAmp: 0.3,
  noise: 0.25,
  doorsPerDay: 6,
  doorRise: 1.1,
  ...extra,
});

/** The demo's carriers; the planned excursions are what the exception list shows after the first start. */
export const CARRIERS: CarrierDef[] = [
  {
    name: 'Pharmacy Fridge 1', scene: 'DEMO-MB-PH', type: 2, gateway: 'DE3000000001', temp: [2, 8], hum: [35, 75], contacts: ['li'],
    sensors: [
      { dev: 'T1000001', type: 'zigbee_th', description: 'Top shelf', profile: fridge({ hum: 50, excursions: [{ hoursAgo: 50, field: 'temp', delta: 5.6, riseMin: 12, holdMin: 8, fallMin: 20 }] }) },
      { dev: 'T1000002', type: 'zigbee_t', description: 'Bottom shelf', profile: fridge({ temp: 4.6, excursions: [{ hoursAgo: 50, field: 'temp', delta: 4.3, riseMin: 14, holdMin: 6, fallMin: 22 }] }) },
    ],
  },
  {
    name: 'Pharmacy Fridge 2', scene: 'DEMO-MB-PH', type: 2, gateway: 'DE3000000001', temp: [2, 8], hum: [35, 75], contacts: ['li'],
    sensors: [
      { dev: 'T1000003', type: 'zigbee_th', description: 'Insulin shelf', profile: fridge({ temp: 5.4, hum: 52, excursions: [{ hoursAgo: 27, field: 'hum', delta: 29, riseMin: 15, holdMin: 30, fallMin: 25 }] }) },
    ],
  },
  {
    name: 'Vaccine Fridge', scene: 'DEMO-MB-VR', type: 2, gateway: 'DE3000000001', temp: [2, 8], hum: [35, 75], contacts: ['zhang'],
    sensors: [
      { dev: 'T1000004', type: 'zigbee_th', description: 'Door side', profile: fridge({ hum: 48, doorsPerDay: 10, excursions: [
        { hoursAgo: 118, field: 'temp', delta: 4.2, riseMin: 8, holdMin: 6, fallMin: 16 },
        { hoursAgo: 3, field: 'temp', delta: 3.9, riseMin: 6, holdMin: 4, fallMin: 14 },
      ] }) },
      { dev: 'T1000005', type: 'zigbee_t', description: 'Back wall', profile: fridge({ temp: 4.4, doorsPerDay: 10, doorRise: 0.8 }) },
    ],
  },
  {
    name: 'Incubator A', scene: 'DEMO-MB-LAB', type: 1, gateway: 'DE3000000002', temp: [36, 38], hum: [70, 95], contacts: ['wang'],
    sensors: [
      { dev: 'T1000006', type: 'zigbee_th', description: 'Chamber', profile: { temp: 37, dailyAmp: 0.05, noise: 0.08, hum: 85, humNoise: 1.2, doorsPerDay: 3, doorRise: -0.4,
        excursions: [{ hoursAgo: 70, field: 'temp', delta: -2.3, riseMin: 20, holdMin: 15, fallMin: 40 }] } },
    ],
  },
  {
    name: 'Incubator B', scene: 'DEMO-MB-LAB', type: 1, gateway: 'DE3000000002', temp: [36, 38], contacts: ['wang'],
    sensors: [{ dev: 'T1000007', type: 'zigbee_t', description: 'Chamber', profile: { temp: 37.1, dailyAmp: 0.05, noise: 0.08, doorsPerDay: 3, doorRise: -0.4 } }],
  },
  {
    name: 'Cold Room', scene: 'DEMO-CS', type: 4, gateway: 'DE3000000003', temp: [-25, -15], contacts: ['chen'],
    sensors: [
      { dev: 'T1000008', type: 'lora_t', description: 'Near the door', profile: { temp: -20, dailyAmp: 0.4, noise: 0.3, defrostEveryH: 8, defrostRise: 2.4,
        excursions: [{ hoursAgo: 94, field: 'temp', delta: 9, riseMin: 25, holdMin: 20, fallMin: 45 }] } },
      { dev: 'T1000009', type: 'lora_t', description: 'Rear racks', profile: { temp: -20.6, dailyAmp: 0.3, noise: 0.3, defrostEveryH: 8, defrostRise: 2.0 } },
    ],
  },
  {
    name: 'Vaccine Van 01', scene: 'DEMO-FL', type: 3, gateway: 'DE3000000004', temp: [2, 8], hum: [35, 75], contacts: ['chen'],
    sensors: [
      { dev: 'T1000010', type: '4g_th_gps', description: 'Cargo box', profile: { temp: 5, dailyAmp: 0.4, noise: 0.25, hum: 55, trips: true, doorsPerDay: 4, doorRise: 0.9,
        excursions: [{ hoursAgo: 21, field: 'temp', delta: 4.4, riseMin: 10, holdMin: 12, fallMin: 18 }] } },
    ],
  },
];

const TEST_FRIDGE: CarrierDef = {
  name: FEED_GATEWAY.carrier, scene: 'DEMO-MB-VR', type: 2, gateway: FEED_GATEWAY.sn, temp: [2, 8], hum: [35, 75], contacts: ['coldroom'],
  sensors: [{ dev: FEED_GATEWAY.dev, type: 'zigbee_th', description: 'Driven by hand (README)', profile: fridge({ hum: 50 }) }],
};

/** What the simulator drives: every demo gateway but the hand-driven one, with its secret and its sensors' profiles. */
export interface DemoGateway {
  sn: string;
  secret: string;
  sensors: { dev: string; humidity: boolean; carrierType: 1 | 2 | 3 | 4; profile: SensorProfile; zone: { temp: [number, number]; hum?: [number, number] } }[];
}

/** Whether this database already holds the complete demo. */
export async function demoSeeded(db: Db): Promise<boolean> {
  return !!(await db.one('SELECT 1 FROM setting WHERE key = $1', [SEEDED_SETTING]));
}

export interface SeedResult {
  created: boolean;
  customerId: number;
  readings: number;
  ms: number;
}

/**
 * Seeds the demo once. Everything but the root account goes in one transaction, so an
 * interrupted first start leaves nothing half made and the next start seeds again.
 */
export async function seedDemo(db: Db, opts: { now?: number } = {}): Promise<SeedResult> {
  const t0 = Date.now();
  await ensureRoot(db, DEMO_ROOT_PASSWORD);
  const existing = await db.one<{ id: number }>('SELECT id FROM customer WHERE code = $1', [DEMO_CUSTOMER.code]);
  if (existing && (await demoSeeded(db))) return { created: false, customerId: existing.id, readings: 0, ms: Date.now() - t0 };
  if (existing) throw new Error(`A customer with code ${DEMO_CUSTOMER.code} exists but was not made by the demo seed; remove it or start with DEMO=0.`);

  const now = opts.now ?? Date.now();
  const step = HISTORY_STEP_MS;
  const to = Math.floor(now / step) * step;
  const from = to - HISTORY_DAYS * 86_400_000;
  // Monthly partitions of `reading` first: their DDL runs in its own transaction.
  await new Partitions(db).ensureFor([from, to]);

  const secrets: Record<string, string> = {};
  for (const g of GATEWAYS) secrets[g.sn] = generateGatewaySecret();

  let readings = 0;
  const customerId = await db.tx(async (q) => {
    const { customerId } = await createCustomerWithAdmin(asDb(db, q), { ...DEMO_CUSTOMER, orgType: '02' });
    await q.query(`UPDATE customer SET short_name = 'Demo', area = 'Shanghai', address = '1 Demo Road, Shanghai', contact = 'Li Wei', phone = '021-00000000', email = 'it@example.com' WHERE id = $1`, [customerId]);
    // The demo accounts carry a mobile number and an e-mail (§5: the profile form requires a mobile), so their profiles can be saved as they are.
    await q.query(`UPDATE app_user SET mobile = '13900000001', email = 'demo@example.com' WHERE account = 'demo'`);
    await q.query(`UPDATE app_user SET mobile = '13900000000', email = 'admin@example.com' WHERE account = 'admin' AND mobile IS NULL`);
    // What the demo's probes can measure (/arch/detection).
    await q.query(
      `INSERT INTO probe_range (customer_id, unit_id, min_value, max_value)
       SELECT $1, id, r.min, r.max FROM probe_unit u JOIN (VALUES ('temp', -40, 85), ('hum', 0, 100), ('volt', 2.0, 3.6)) AS r(number, min, max) ON r.number = u.number`,
      [customerId],
    );

    const sceneIds = new Map<string, number>();
    for (const [i, s] of SCENES.entries()) {
      const row = await one<{ id: number }>(
        q,
        `INSERT INTO scene (customer_id, parent_id, code, label, lat, lng, sort) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [customerId, s.parent ? sceneIds.get(s.parent) : null, s.code, s.label, s.lat, s.lng, i],
      );
      sceneIds.set(s.code, row.id);
    }

    const contactIds = new Map<string, number>();
    for (const c of CONTACTS) {
      const row = await one<{ id: number }>(
        q,
        `INSERT INTO contact (customer_id, name, gender, phone, email, group_name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [customerId, c.name, c.gender, c.phone, c.email, c.group],
      );
      contactIds.set(c.key, row.id);
    }

    const gatewayIds = new Map<string, number>();
    const sceneOf = new Map<string, { lat: number; lng: number }>(SCENES.map((s) => [s.code, s]));
    for (const g of GATEWAYS) {
      const at = sceneOf.get(g.scene)!;
      const row = await one<{ id: number }>(
        q,
        `INSERT INTO gateway (customer_id, sn, name, type, secret_hash, status, last_seen_at, power, tcp, lte, flight, ip, lat, lng)
         VALUES ($1, $2, $3, $4, $5, 1, to_timestamp($6 / 1000.0), 'normal', true, false, false, $7, $8, $9) RETURNING id`,
        [customerId, g.sn, g.name, g.type, hashGatewaySecret(secrets[g.sn]), to, `10.0.0.${gatewayIds.size + 11}`, at.lat, at.lng],
      );
      gatewayIds.set(g.sn, row.id);
    }
    const feed = await one<{ id: number }>(
      q,
      `INSERT INTO gateway (customer_id, sn, name, nickname, type, secret_hash) VALUES ($1, $2, 'Hand-driven gateway', 'see README', 'gw2', $3) RETURNING id`,
      [customerId, FEED_GATEWAY.sn, hashGatewaySecret(FEED_GATEWAY.secret)],
    );
    gatewayIds.set(FEED_GATEWAY.sn, feed.id);

    // The vehicles' places: leaving one starts a trip, reaching the other ends it (docs/transport.md "Places").
    for (const p of DEMO_PLACES)
      await q.query(`INSERT INTO place (customer_id, name, lat, lng, radius_m, updated_by) VALUES ($1, $2, $3, $4, $5, 'demo')`, [customerId, p.name, p.lat, p.lng, p.radiusM]);

    for (const c of [...CARRIERS, TEST_FRIDGE]) {
      const car = await one<{ id: number }>(
        q,
        // Vehicles (type 3) in transport mode: their gateway's positions make trips (docs/transport.md).
        `INSERT INTO carrier (customer_id, scene_id, name, type, temp_min, temp_max, hum_min, hum_max, mode) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [customerId, sceneIds.get(c.scene), c.name, c.type, c.temp[0], c.temp[1], c.hum?.[0] ?? null, c.hum?.[1] ?? null, c.type === 3 ? 'transport' : 'normal'],
      );
      for (const k of c.contacts) {
        await q.query(`INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [car.id, contactIds.get(k), customerId]);
      }
      if (c.type === 3) await q.query(`UPDATE gateway SET carrier_id = $1 WHERE id = $2`, [car.id, gatewayIds.get(c.gateway)]);
      for (const s of c.sensors) {
        const sensor = await one<{ id: number }>(
          q,
          `INSERT INTO sensor (customer_id, dev_no, type, description, gateway_id, carrier_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [customerId, s.dev, s.type, s.description, gatewayIds.get(c.gateway), car.id],
        );
        if (c === TEST_FRIDGE) continue; // no history: its readings are the ones people send
        readings += await backfill(q, customerId, sensor.id, s, from, to, step);
      }
    }

    await q.query(`INSERT INTO setting (key, value) VALUES ($1, $2)`, [SECRETS_SETTING, JSON.stringify(secrets)]);
    await q.query(`INSERT INTO setting (key, value) VALUES ($1, $2)`, [SEEDED_SETTING, new Date(now).toISOString()]);
    return customerId;
  });
  return { created: true, customerId, readings, ms: Date.now() - t0 };
}

/**
 * A sensor's seven days: readings in batches of INSERT … SELECT FROM unnest, its latest
 * values, and an alarm_queue row over the whole span so that the alarm evaluator files the
 * excursions as exception records, exactly as it would for a gateway's late buffer.
 */
async function backfill(q: Queryable, customerId: number, sensorId: number, s: SensorDef, from: number, to: number, step: number): Promise<number> {
  const series = generateSeries(s.profile, seedOf(s.dev), from, to, step);
  const humidity = sensorMeasuresHumidity(s.type);
  const n = series.ts.length;
  const CHUNK = 5000;
  for (let i = 0; i < n; i += CHUNK) {
    const slice = <T>(a: T[]) => a.slice(i, i + CHUNK);
    const ts = slice(series.ts);
    await q.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum, volt, rssi, lqi)
       SELECT $1, to_timestamp(t / 1000.0), $2, temp, hum, volt, rssi, lqi
         FROM unnest($3::float8[], $4::real[], $5::real[], $6::real[], $7::real[], $8::real[]) AS u(t, temp, hum, volt, rssi, lqi)
       ON CONFLICT DO NOTHING`,
      [sensorId, customerId, ts, slice(series.temp), humidity ? slice(series.hum) : ts.map(() => null), slice(series.volt), slice(series.rssi), slice(series.lqi)],
    );
  }
  const last = n - 1;
  // Written here, not by the ingest writer: the rollups learn of these buckets explicitly.
  await markForRollup(q, sensorId, series.ts[0], series.ts[last]);
  await q.query(
    `UPDATE sensor SET status = 1, last_ts = to_timestamp($2 / 1000.0), last_temp = $3, last_hum = $4, last_volt = $5, last_rssi = $6, last_lqi = $7 WHERE id = $1`,
    [sensorId, series.ts[last], series.temp[last], humidity ? series.hum[last] : null, series.volt[last], series.rssi[last], series.lqi[last]],
  );
  await q.query(
    `INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts) VALUES ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0))
     ON CONFLICT (sensor_id) DO UPDATE SET min_ts = LEAST(alarm_queue.min_ts, EXCLUDED.min_ts), max_ts = GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts),
       version = alarm_queue.version + 1`,
    [sensorId, customerId, series.ts[0], series.ts[last]],
  );
  return n;
}

/**
 * The simulated gateways with their secrets and the sensors still enrolled on them (a user
 * may have removed some), for the simulator. Empty when the demo was never seeded.
 */
export async function demoGateways(db: Db): Promise<DemoGateway[]> {
  const row = await db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [SECRETS_SETTING]);
  if (!row) return [];
  const secrets = JSON.parse(row.value) as Record<string, string>;
  const enrolled = await db.query<{ sn: string; dev_no: string }>(
    `SELECT g.sn, s.dev_no FROM sensor s JOIN gateway g ON g.id = s.gateway_id WHERE g.sn = ANY($1::text[]) AND s.status <> 2 AND g.status <> 2`,
    [Object.keys(secrets)],
  );
  const onGateway = new Set(enrolled.map((r) => `${r.sn}/${r.dev_no}`));
  const out: DemoGateway[] = [];
  for (const g of GATEWAYS) {
    const secret = secrets[g.sn];
    if (!secret) continue;
    const sensors = CARRIERS.filter((c) => c.gateway === g.sn).flatMap((c) =>
      c.sensors
        .filter((s) => onGateway.has(`${g.sn}/${s.dev}`))
        .map((s) => ({ dev: s.dev, humidity: s.profile.hum !== undefined, carrierType: c.type, profile: s.profile, zone: { temp: c.temp, hum: c.hum } })),
    );
    if (sensors.length) out.push({ sn: g.sn, secret, sensors });
  }
  return out;
}

async function one<T>(q: Queryable, text: string, params: unknown[]): Promise<T> {
  const rows = await q.query<T>(text, params);
  if (!rows[0]) throw new Error(`demo seed: no row from ${text.slice(0, 60)}`);
  return rows[0];
}

/** The Db interface over a transaction's connection, for helpers written against Db. */
function asDb(db: Db, q: Queryable): Db {
  return {
    kind: db.kind,
    status: db.status,
    query: (text, params) => q.query(text, params),
    run: (text, params) => q.run(text, params),
    one: async <T>(text: string, params?: unknown[]) => (await q.query<T>(text, params))[0],
    tx: (fn) => fn(q),
    exec: (sql) => q.exec(sql),
    copyIn: (target, data) => q.copyIn(target, data),
    close: async () => undefined,
  };
}
