/**
 * `npm run seed:scale -- [sensors]` (100,000 by default; a multiple of 100): the scale customer
 * "Scale Network" (code SCALE, administrator scale/scale123; platform administrator admin/admin123)
 * laid out as bench/scale/network.ts says (N/100 gateways, N/2 carriers of one or two sensors,
 * a network → city → hospital → department scene tree, contacts), with a day of readings every
 * SEED_STEP_MIN minutes (15: 97 a sensor, 9.7 million at 100,000) and each sensor's latest values.
 * About 1 % of the carriers had an excursion during the day (their sensors are queued for the
 * alarm evaluator, which files the exception records when the console starts) and about 1 % of
 * the gateways went offline three hours ago. The day has no rollups (reading_5m, reading_1h): the
 * rollup job's own passes take ~2,000–30,000 buckets/s and this day holds 9.7 million, an hour's
 * work that would run under every bench of the set. SEED_ROLLUPS=1 makes them here (slow), or
 * SEED_ROLLUPS=pending marks them for the console's rollup job.
 *
 * Everything goes in with COPY (binary for the readings, text for the rest), not through the
 * API. Into the PostgreSQL database of DATABASE_URL, which it creates when missing and migrates
 * (prepareDb); use a database of its own, e.g. postgres://postgres@127.0.0.1:5432/coldwatch_scale.
 * PGlite is not supported: an in-memory database would vanish with this process, and
 * 10 million rows are beyond what PGlite is for.
 *
 * Re-running is safe: a complete set of the same size is left alone (and described); a
 * complete set of another size is refused (use another database); a set left half-made by an
 * interrupted run is removed and made again. Prints what it made and how long each step took.
 */
import { performance } from 'node:perf_hooks';
import { sensorMeasuresHumidity } from '@coldwatch/contract';
import pg from 'pg';
import { postgresDb, type Db, type Queryable } from '../../server/src/platform/db/client.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { ensureRoot, createCustomerWithAdmin } from '../../server/src/platform/seed/root.js';
import { copyBinary } from '../../server/src/platform/db/copy.js';
import { READING_COLUMNS, READING_TYPES } from '../../server/src/ingest/statements.js';
import { Partitions } from '../../server/src/ingest/partitions.js';
import { rollupPass } from '../../server/src/ingest/rollup.js';
import { hashGatewaySecret } from '../../server/src/ingest/secret.js';
import { DEMO_ROOT_PASSWORD } from '../../server/src/demo/seed.js';
import { generateSeries, seedOf, type Excursion } from '../../server/src/demo/history.js';
import { copyText, type Cell } from './copyText.js';
import { CARRIERS_PER_GATEWAY, SCALE_CUSTOMER, gatewayCarriers, gatewayCount, placeOf, scaleGateway, type ScaleGateway, type ScaleSensor } from './network.js';

/** The setting written last: its presence means the set is complete; its value says how big. */
export const SCALE_SEEDED_SETTING = 'scale.seeded';
const OFFLINE_HOURS = 3;

const sensors = Number(process.argv[2] ?? process.env.SEED_SENSORS ?? 100_000);
const stepMin = Number(process.env.SEED_STEP_MIN ?? 15);
const url = process.env.DATABASE_URL;
if (!url) fail('seed:scale needs DATABASE_URL (PostgreSQL), e.g. postgres://postgres@127.0.0.1:5432/coldwatch_scale; PGlite is not supported.');
if (!Number.isInteger(sensors) || sensors < 100 || sensors % 100 !== 0) fail(`seed:scale: the number of sensors must be a multiple of 100 (got ${process.argv[2]}).`);
if (!(stepMin >= 1 && stepMin <= 60)) fail('seed:scale: SEED_STEP_MIN must be 1–60 minutes.');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Gateways that went offline OFFLINE_HOURS ago, and carriers whose first sensor left its zone during the day (about 1 % each). */
const offline = (g: number) => g % 97 === 13;
const excursionOf = (g: number, k: number, s: ScaleSensor): Excursion | undefined =>
  (g * CARRIERS_PER_GATEWAY + k) % 97 === 5
    ? { hoursAgo: 2 + ((g + k) % 20), field: 'temp', delta: s.zone.temp[1] - s.profile.temp + 1.5, riseMin: 10, holdMin: 15, fallMin: 20 }
    : undefined;

const t0 = performance.now();
const steps: string[] = [];
const lap = (() => {
  let last = t0;
  return (what: string) => {
    const now = performance.now();
    steps.push(`${what}: ${((now - last) / 1000).toFixed(1)} s`);
    console.log(`  ${what} (${((now - last) / 1000).toFixed(1)} s)`);
    last = now;
  };
})();

await ensureDatabase(url);
const db = postgresDb(url, 4);
try {
  await prepareDb(db);
  await ensureRoot(db, DEMO_ROOT_PASSWORD);
  const existing = await db.one<{ id: number }>('SELECT id FROM customer WHERE code = $1', [SCALE_CUSTOMER.code]);
  const seeded = await db.one<{ value: string }>('SELECT value FROM setting WHERE key = $1', [SCALE_SEEDED_SETTING]);
  if (existing && seeded) {
    const made = JSON.parse(seeded.value) as { sensors: number; at: string };
    if (made.sensors !== sensors) fail(`seed:scale: this database already holds a scale set of ${made.sensors.toLocaleString('en-US')} sensors (made ${made.at}); use another DATABASE_URL for ${sensors.toLocaleString('en-US')}, or drop this one.`);
    console.log(`seed:scale: the scale set of ${sensors.toLocaleString('en-US')} sensors is already here (made ${made.at}); nothing to do.`);
    await describe(db, existing.id);
  } else {
    if (existing) {
      console.log('seed:scale: a scale set left half-made by an interrupted run: removing it first');
      await removeCustomer(db, existing.id);
      lap('removed the half-made set');
    }
    await seed(db);
  }
} finally {
  await db.close();
}

async function seed(db: Db) {
  const now = Date.now();
  const step = stepMin * 60_000;
  const to = Math.floor(now / step) * step;
  const from = to - 86_400_000;
  const gateways = Array.from({ length: gatewayCount(sensors) }, (_, g) => scaleGateway(g));
  console.log(`seed:scale: ${sensors.toLocaleString('en-US')} sensors on ${gateways.length.toLocaleString('en-US')} gateways into ${url!.replace(/\/\/[^@/]*@/, '//')}`);
  await new Partitions(db).ensureFor([from, to]);

  const customerId = await db.tx(async (q) => {
    const { customerId } = await createCustomerWithAdmin(q, { ...SCALE_CUSTOMER, orgType: '02' });
    await q.query(`UPDATE customer SET short_name = 'Scale', area = 'Zhejiang', address = '1 Network Road, Hangzhou', contact = 'Network Duty', phone = '0571-00000000', email = 'duty@example.com' WHERE id = $1`, [customerId]);
    await q.query(`UPDATE app_user SET mobile = '13900000100', email = 'scale@example.com' WHERE account = $1`, [SCALE_CUSTOMER.account]);
    await q.query(
      `INSERT INTO probe_range (customer_id, unit_id, min_value, max_value)
       SELECT $1, id, r.min, r.max FROM probe_unit u JOIN (VALUES ('temp', -40, 85), ('hum', 0, 100), ('volt', 2.0, 3.6)) AS r(number, min, max) ON r.number = u.number`,
      [customerId],
    );
    await seedDirectory(q, customerId, gateways, to);
    return customerId;
  });
  lap('customer, scenes, contacts, gateways, carriers and sensors');

  const ids = new Map((await db.query<{ id: number; dev_no: string }>('SELECT id, dev_no FROM sensor WHERE customer_id = $1', [customerId])).map((r) => [r.dev_no, r.id]));
  const readings = await seedReadings(db, customerId, gateways, ids, from, to, step);
  lap(`${readings.toLocaleString('en-US')} readings (COPY binary)`);

  await db.exec('ANALYZE scene; ANALYZE carrier; ANALYZE sensor; ANALYZE gateway; ANALYZE contact; ANALYZE carrier_contact; ANALYZE reading');
  lap('ANALYZE');

  if (process.env.SEED_ROLLUPS === '1') {
    const n = await rollup(db, customerId);
    lap(`${n.toLocaleString('en-US')} five-minute rollups`);
  } else if (process.env.SEED_ROLLUPS === 'pending') {
    await markPending(db, customerId);
    lap('rollups left pending for the console (SEED_ROLLUPS=pending)');
  }

  await db.query(`INSERT INTO setting (key, value) VALUES ($1, $2)`, [SCALE_SEEDED_SETTING, JSON.stringify({ sensors, at: new Date(now).toISOString(), stepMin })]);
  await describe(db, customerId);
  console.log(`seed:scale took ${((performance.now() - t0) / 1000).toFixed(1)} s (${steps.join('; ')})`);
}

/** Scenes, contacts, gateways, carriers, the carriers' contacts and the sensors, level by level (a level needs its parents' ids). */
async function seedDirectory(q: Queryable, customerId: number, gateways: ScaleGateway[], to: number) {
  const places = gateways.map((g) => placeOf(g.index));
  const [root] = await q.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label, lat, lng) VALUES ($1, 'SCALE', 'Provincial cold-chain network', 29.5, 120.2) RETURNING id`, [customerId]);
  const level = async (rows: { code: string; label: string; parent: number; at: { lat: number; lng: number } }[]) => {
    const unique = [...new Map(rows.map((r) => [r.code, r])).values()];
    await q.copyIn('scene (customer_id, parent_id, code, label, lat, lng, sort)', copyText(unique.map((r, i) => [customerId, r.parent, r.code, r.label, r.at.lat, r.at.lng, i])));
    return new Map((await q.query<{ id: number; code: string }>(`SELECT id, code FROM scene WHERE code = ANY($1::text[])`, [unique.map((r) => r.code)])).map((r) => [r.code, r.id]));
  };
  const cityIds = await level(places.map((p) => ({ code: p.cityCode, label: p.cityLabel, parent: root.id, at: p.cityAt })));
  const hospitalIds = await level(places.map((p) => ({ code: p.hospitalCode, label: p.hospitalLabel, parent: cityIds.get(p.cityCode)!, at: p.hospitalAt })));
  const departmentIds = await level(places.map((p) => ({ code: p.departmentCode, label: p.departmentLabel, parent: hospitalIds.get(p.hospitalCode)!, at: p.departmentAt })));

  // Five on-duty contacts a hospital; a carrier notifies one of its hospital's.
  const contactRows: Cell[][] = [];
  for (const h of hospitalIds.keys()) {
    const n = Number(h.slice('SCALE-H'.length));
    for (let c = 0; c < 5; c++) contactRows.push([customerId, `Duty H${n + 1}-${c + 1}`, c % 2, `139${String(n * 5 + c).padStart(8, '0')}`, `duty.h${n + 1}.${c + 1}@example.com`, `Hospital ${n + 1}`]);
  }
  await q.copyIn('contact (customer_id, name, gender, phone, email, group_name)', copyText(contactRows));
  const contactIds = new Map((await q.query<{ id: number; name: string }>('SELECT id, name FROM contact WHERE customer_id = $1', [customerId])).map((r) => [r.name, r.id]));

  await q.copyIn(
    'gateway (customer_id, sn, name, type, secret_hash, status, last_seen_at, power, tcp, lte, flight, ip, lat, lng)',
    copyText(
      gateways.map((g, i) => {
        const p = places[i];
        const seen = new Date(offline(g.index) ? to - OFFLINE_HOURS * 3_600_000 : to).toISOString();
        return [customerId, g.sn, `${p.hospitalShort} ${p.departmentLabel} gateway`, 'gw2', hashGatewaySecret(g.password), offline(g.index) ? 0 : 1, seen, 'normal', true, false, false, `10.${(g.index >> 8) & 255}.${g.index & 255}.1`, p.departmentAt.lat, p.departmentAt.lng];
      }),
    ),
  );
  const gatewayIds = new Map((await q.query<{ id: number; sn: string }>('SELECT id, sn FROM gateway WHERE customer_id = $1', [customerId])).map((r) => [r.sn, r.id]));

  const carriers = gatewayCarriers();
  const carrierName = (g: number, k: number) => `${places[g].hospitalShort} ${places[g].departmentLabel} ${carriers[k].name}`;
  await q.copyIn(
    'carrier (customer_id, scene_id, name, type, temp_min, temp_max, hum_min, hum_max)',
    copyText(gateways.flatMap((g, i) => carriers.map((c, k) => [customerId, departmentIds.get(places[i].departmentCode)!, carrierName(i, k), c.type, c.zone.temp[0], c.zone.temp[1], c.zone.hum?.[0] ?? null, c.zone.hum?.[1] ?? null]))),
  );
  // Names are unique in the customer (hospital, department, kind and number), so they find the ids.
  const carrierIds = new Map((await q.query<{ id: number; name: string }>('SELECT id, name FROM carrier WHERE customer_id = $1', [customerId])).map((r) => [r.name, r.id]));
  await q.copyIn(
    'carrier_contact (carrier_id, contact_id, customer_id)',
    copyText(gateways.flatMap((g, i) => carriers.map((_, k) => [carrierIds.get(carrierName(i, k))!, contactIds.get(`Duty H${places[i].hospital + 1}-${(k % 5) + 1}`)!, customerId]))),
  );
  await q.copyIn(
    'sensor (customer_id, dev_no, type, description, gateway_id, carrier_id, status)',
    copyText(
      gateways.flatMap((g, i) =>
        g.sensors.map((s, j) => [
          customerId,
          s.dev,
          s.type,
          s.carrier === null ? 'Spare' : carriers[s.carrier].sensors.length === 2 ? (carriers[s.carrier].sensors[0] === j ? 'Top shelf' : 'Bottom shelf') : 'Centre',
          gatewayIds.get(g.sn)!,
          s.carrier === null ? null : carrierIds.get(carrierName(i, s.carrier))!,
          offline(g.index) ? 0 : 1,
        ]),
      ),
    ),
  );
}

/**
 * Each sensor's day (the demo's generator: day/night swing, doors, defrosts, the planned
 * excursion), COPY'd in binary batches with two COPYs in flight while the next batch is
 * generated; the latest values then go to the sensors in one UPDATE from a COPY'd table, and
 * the sensors with an excursion into the alarm evaluator's queue.
 */
async function seedReadings(db: Db, customerId: number, gateways: ScaleGateway[], ids: Map<string, number>, from: number, to: number, step: number): Promise<number> {
  const last: Cell[][] = [];
  const queued: Cell[][] = [];
  const inFlight = new Set<Promise<void>>();
  const BATCH = 5; // gateways per COPY: ~48,500 readings
  let total = 0;
  for (let b = 0; b < gateways.length; b += BATCH) {
    const cols: { sensor: number[]; ts: number[]; temp: number[]; hum: (number | null)[]; volt: number[]; rssi: number[]; lqi: number[] } = { sensor: [], ts: [], temp: [], hum: [], volt: [], rssi: [], lqi: [] };
    for (const g of gateways.slice(b, b + BATCH)) {
      const end = offline(g.index) ? to - OFFLINE_HOURS * 3_600_000 : to;
      for (const s of g.sensors) {
        const id = ids.get(s.dev)!;
        const excursion = s.carrier !== null && s === g.sensors.find((x) => x.carrier === s.carrier) ? excursionOf(g.index, s.carrier, s) : undefined;
        const series = generateSeries({ ...s.profile, excursions: excursion ? [{ ...excursion, hoursAgo: excursion.hoursAgo - (to - end) / 3_600_000 }] : [] }, seedOf(s.dev), from, end, step);
        const humidity = sensorMeasuresHumidity(s.type);
        for (let i = 0; i < series.ts.length; i++) {
          cols.sensor.push(id);
          cols.ts.push(series.ts[i]);
          cols.temp.push(series.temp[i]);
          cols.hum.push(humidity ? series.hum[i] : null);
          cols.volt.push(series.volt[i]);
          cols.rssi.push(series.rssi[i]);
          cols.lqi.push(series.lqi[i]);
        }
        const n = series.ts.length - 1;
        last.push([id, new Date(series.ts[n]).toISOString(), series.temp[n], humidity ? series.hum[n] : null, series.volt[n], series.rssi[n], series.lqi[n]]);
        if (excursion) queued.push([id, customerId, new Date(series.ts[0]).toISOString(), new Date(series.ts[n]).toISOString()]);
      }
    }
    const rows = cols.ts.length;
    total += rows;
    const buf = copyBinary(READING_TYPES, rows, (r, c) => [cols.sensor[r], cols.ts[r], customerId, cols.temp[r], cols.hum[r], cols.volt[r], cols.rssi[r], cols.lqi[r], null, null][c]);
    const p = db.copyIn(READING_COLUMNS, buf).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 2) await Promise.race(inFlight);
    if ((b / BATCH) % 20 === 19) console.log(`  … ${total.toLocaleString('en-US')} readings`);
  }
  await Promise.all(inFlight);

  await db.tx(async (q) => {
    await q.exec('CREATE TEMP TABLE scale_last (id int, ts timestamptz, temp real, hum real, volt real, rssi real, lqi real) ON COMMIT DROP');
    await q.copyIn('scale_last', copyText(last));
    await q.exec(`UPDATE sensor s SET last_ts = l.ts, last_temp = l.temp, last_hum = l.hum, last_volt = l.volt, last_rssi = l.rssi, last_lqi = l.lqi FROM scale_last l WHERE s.id = l.id`);
    if (queued.length) await q.copyIn('alarm_queue (sensor_id, customer_id, min_ts, max_ts)', copyText(queued));
  });
  return total;
}

/** Marks every 5-minute bucket of the customer's readings for the rollup job (as the demo's markForRollup does, for all sensors at once). */
async function markPending(db: Db, customerId: number) {
  await db.query(
    `INSERT INTO rollup_pending (sensor_id, bucket)
     SELECT DISTINCT sensor_id, to_timestamp(floor(extract(epoch from ts) / 300) * 300) FROM reading WHERE customer_id = $1
     ON CONFLICT DO NOTHING`,
    [customerId],
  );
}

/** The rollup job's own passes over everything marked, one at a time (two would rebuild the same hours and deadlock). */
async function rollup(db: Db, customerId: number): Promise<number> {
  await markPending(db, customerId);
  let done = 0;
  let next = 0;
  for (let n = await rollupPass(db, 20_000); n > 0; n = await rollupPass(db, 20_000)) {
    done += n;
    if (done >= next) {
      console.log(`  … ${done.toLocaleString('en-US')} buckets rolled up`);
      next += 1_000_000;
    }
  }
  return done;
}

async function describe(db: Db, customerId: number) {
  const count = async (sql: string) => (await db.one<{ n: number }>(sql, [customerId]))!.n.toLocaleString('en-US');
  console.log(
    `customer ${SCALE_CUSTOMER.name} (code ${SCALE_CUSTOMER.code}, id ${customerId}; sign in as ${SCALE_CUSTOMER.account}/${SCALE_CUSTOMER.password}, or admin/${DEMO_ROOT_PASSWORD} for the platform): ` +
    [
      `${await count('SELECT count(*)::int AS n FROM scene WHERE customer_id = $1')} scenes`,
      `${await count('SELECT count(*)::int AS n FROM gateway WHERE customer_id = $1')} gateways`,
      `${await count('SELECT count(*)::int AS n FROM carrier WHERE customer_id = $1')} carriers`,
      `${await count('SELECT count(*)::int AS n FROM sensor WHERE customer_id = $1')} sensors`,
      `${await count('SELECT count(*)::int AS n FROM contact WHERE customer_id = $1')} contacts`,
      `${await count('SELECT count(*)::int AS n FROM reading WHERE customer_id = $1')} readings`,
    ].join(', '),
  );
}

async function removeCustomer(db: Db, customerId: number) {
  const sensorIds = `(SELECT id FROM sensor WHERE customer_id = ${customerId})`;
  await db.exec(
    `DELETE FROM reading WHERE customer_id = ${customerId}; DELETE FROM rollup_pending WHERE sensor_id IN ${sensorIds};
     DELETE FROM reading_5m WHERE customer_id = ${customerId}; DELETE FROM reading_1h WHERE customer_id = ${customerId};
     DELETE FROM alarm_queue WHERE customer_id = ${customerId}; DELETE FROM customer WHERE id = ${customerId}`,
  );
}

/** Creates the database named in the URL when it does not exist (through the server's `postgres` database). */
async function ensureDatabase(databaseUrl: string) {
  const u = new URL(databaseUrl);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!name || name === 'postgres') return;
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      console.log(`seed:scale: created database ${name}`);
    }
  } finally {
    await c.end();
  }
}
