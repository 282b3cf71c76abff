/**
 * The presence scan on a large fleet (docs/jobs.md "Presence", docs/alarms.md "Connection,
 * power and battery"). On a fresh database (a new one on DATABASE_URL's server, else PGlite):
 * BENCH_CUSTOMERS customers, BENCH_SENSORS sensors in all on 20 gateways and 50 monitoring points
 * each, every point with two contacts with an e-mail address; half the customers with tasks of
 * their own. Then, timed, with the statements each step sent counted:
 *
 * 1. a quiet scan: every device fresh, nothing to do (what every 30 s costs in steady state);
 * 2. the whole fleet silent: one scan marks every sensor and gateway offline, opens their
 *    connection exceptions and writes their notices;
 * 3. the baseline: the scan of the first version (one UPDATE marking the same sensors offline,
 *    3 × sample interval + 60 s, no exceptions), on the same rows made running and silent again;
 * 4. the ingest writer's end step for every sensor back at once (one statement).
 *
 * Last line: `sensors=… quiet_ms=… silent_ms=… statements=… opened=… notices=… baseline_ms=… end_ms=…`.
 */
import { freshDb } from '../../server/test/db.js';
import type { Db, Queryable } from '../../server/src/platform/db/client.js';
import { Bus } from '../../server/src/platform/events.js';
import { scanDevices } from '../../server/src/ingest/presence.js';
import { endSensorConnections } from '../../server/src/alarm/devices.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20);
const SENSORS = Number(process.env.BENCH_SENSORS ?? 10_000);
const perCustomer = Math.ceil(SENSORS / CUSTOMERS);

const { db: raw, drop } = await freshDb(process.env.DATABASE_URL);
const label = raw.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';

/** The database, counting the statements sent through it (inside transactions too). */
let statements = 0;
/** The slowest statements of the last timed step (BENCH_TRACE=1 prints them). */
let slow: { ms: number; text: string }[] = [];
const traced = async <T>(text: string, run: () => Promise<T>) => {
  const t = performance.now();
  const out = await run();
  slow.push({ ms: Math.round(performance.now() - t), text: text.replace(/\s+/g, ' ').slice(0, 90) });
  return out;
};
const counted = (q: Queryable): Queryable => ({
  query: (text, params) => (statements++, traced(text, () => q.query(text, params))),
  run: (text, params) => (statements++, q.run(text, params)),
  exec: (text) => (statements++, q.exec(text)),
  copyIn: (target, data) => (statements++, q.copyIn(target, data)),
});
const db: Db = { ...raw, query: (text, params) => counted(raw).query(text, params), tx: (fn) => raw.tx((q) => fn(counted(q))) } as Db;

const t0 = Date.now();
for (let c = 0; c < CUSTOMERS; c++) {
  const [cust] = await raw.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench presence ${c}`, `BP${c}`]);
  const [scene] = await raw.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Ward') RETURNING id`, [cust.id, `BPS${c}`]);
  await raw.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type) SELECT $1, $2, 'Fridge ' || g, 2 FROM generate_series(1, 50) g`,
    [cust.id, scene.id],
  );
  await raw.query(`INSERT INTO contact (customer_id, name, email) SELECT $1, 'Nurse ' || g, 'nurse' || g || '.c' || $2 || '@bench.test' FROM generate_series(1, 2) g`, [cust.id, c]);
  await raw.query(
    `INSERT INTO carrier_contact (customer_id, carrier_id, contact_id) SELECT $1, k.id, ct.id FROM carrier k, contact ct WHERE k.customer_id = $1 AND ct.customer_id = $1`,
    [cust.id],
  );
  await raw.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at) SELECT $1, lpad(to_hex($2 * 100 + g), 12, '0'), 'GW ' || g, 'x', 1, now() FROM generate_series(1, 20) g`,
    [cust.id, c],
  );
  await raw.query(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status, last_ts, sample_interval)
     SELECT $1, 'B' || $2 || 'S' || g, (ARRAY['zigbee_th', 'zbp2_t', 'lora_t', '4g_th', 'zeta_th'])[1 + g % 5],
            (SELECT id FROM gateway WHERE customer_id = $1 ORDER BY id OFFSET g % 20 LIMIT 1),
            (SELECT id FROM carrier WHERE customer_id = $1 ORDER BY id OFFSET g % 50 LIMIT 1), 1, now(), 60
       FROM generate_series(1, $3) g`,
    [cust.id, c, perCustomer],
  );
  if (c % 2 === 0) {
    await raw.query(`INSERT INTO monitor_task (customer_id, family, interval_value, interval_unit, status) VALUES ($1, 'zbp', 15, 'minute', 1), ($1, 'lora', 1, 'hour', 1)`, [cust.id]);
  }
}
const [{ n }] = await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM sensor');
console.log(`${label}: ${CUSTOMERS} customers, ${n.toLocaleString('en-US')} sensors, ${CUSTOMERS * 20} gateways (set up in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
await raw.exec('ANALYZE');

const bus = new Bus();
const timed = async <T>(fn: () => Promise<T>) => {
  statements = 0;
  slow = [];
  const t = performance.now();
  const out = await fn();
  if (process.env.BENCH_TRACE) for (const x of slow.sort((a, b) => b.ms - a.ms).slice(0, 6)) console.log(`  ${x.ms} ms  ${x.text}`);
  return { out, ms: Math.round(performance.now() - t), statements };
};

// 1. Quiet.
const quiet = await timed(() => scanDevices(db, bus));
console.log(`quiet scan: ${quiet.ms} ms, ${quiet.statements} statements, ${JSON.stringify(quiet.out)}`);

// 2. Everything silent for two hours (past every task and floor).
await raw.query(`UPDATE sensor SET last_ts = now() - interval '2 hours'`);
await raw.query(`UPDATE gateway SET last_seen_at = now() - interval '2 hours'`);
const silent = await timed(() => scanDevices(db, bus));
console.log(`silent fleet: ${silent.ms} ms, ${silent.statements} statements, ${JSON.stringify(silent.out)}`);
const again = await timed(() => scanDevices(db, bus));
console.log(`the scan after it: ${again.ms} ms, ${again.statements} statements, ${JSON.stringify(again.out)}`);

// 3. The first version's scan on the same rows, running and silent again.
await raw.query(`UPDATE sensor SET status = 1`);
const baseline = await timed(() =>
  db.query(
    `UPDATE sensor s SET status = 0
       FROM (SELECT id FROM sensor WHERE status = 1 AND (last_ts IS NULL OR last_ts < now() - (3 * sample_interval + 60) * interval '1 second') ORDER BY id FOR UPDATE SKIP LOCKED) o
      WHERE s.id = o.id AND s.status = 1 AND (s.last_ts IS NULL OR s.last_ts < now() - (3 * s.sample_interval + 60) * interval '1 second')
      RETURNING s.id, s.customer_id`,
  ),
);
console.log(`baseline (first version, status only): ${baseline.ms} ms for ${baseline.out.length} sensors`);

// 4. Every sensor back at once: the writer's end step.
const ids = await raw.query<{ id: number }>('SELECT id FROM sensor');
const end = await timed(() => db.tx((q) => endSensorConnections(q, ids.map((r) => ({ id: r.id, ts: Date.now() })))));
console.log(`end step for every sensor back: ${end.ms} ms, ${end.statements} statements, ${end.out.length} exceptions ended`);

console.log(
  `sensors=${n} quiet_ms=${quiet.ms} silent_ms=${silent.ms} statements=${silent.statements} opened=${silent.out.opened} notices=${silent.out.notices} baseline_ms=${baseline.ms} end_ms=${end.ms}`,
);
await drop();
