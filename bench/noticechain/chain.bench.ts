/**
 * The notice chain's pass (job alarm-notice, docs/alarms.md "Triggers"; issue 28 "Speed": 10,000
 * ongoing exceptions, one pass under 1 s). On a fresh database (a new one on DATABASE_URL's
 * server, else PGlite): BENCH_CUSTOMERS customers with a monitoring point per exception, one trigger per
 * customer (e-mail and SMS, repeat every minute, escalation after 5 min) with a level-1 and a
 * level-2 contact, and BENCH_EXCEPTIONS ongoing, unacknowledged temperature exceptions whose
 * repeat is due. Timed, with the statements each step sent counted:
 *
 * 1. the pass: every chain steps (a repeat), each told on two channels in its contact's language;
 * 2. a quiet pass right after it: nothing due (what every 15 s costs in steady state);
 * 3. the baseline, on the same rows: the bare writes any set-based pass must make (one UPDATE of
 *    every exception's chain columns, one INSERT of as many notices with a fixed text), so the
 *    pass's figure reads against the floor of this machine at this moment.
 *
 * Last line: `exceptions=… pass_ms=… statements=… notices=… quiet_ms=… baseline_ms=…`.
 */
import { freshDb } from '../../server/test/db.js';
import type { Db, Queryable } from '../../server/src/platform/db/client.js';
import { advanceChains } from '../../server/src/alarm/noticeChain.js';

const EXCEPTIONS = Number(process.env.BENCH_EXCEPTIONS ?? 10_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20);
/** One ongoing exception per carrier and category is all the database allows: one carrier per exception. */
const CARRIERS = Math.ceil(EXCEPTIONS / CUSTOMERS);

const { db: raw, drop } = await freshDb(process.env.DATABASE_URL);
const label = raw.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';

let statements = 0;
/** BENCH_TRACE=1 prints each statement's time: where a pass spends it. */
const trace = async <T>(text: string, run: () => Promise<T>) => {
  const t = performance.now();
  const out = await run();
  if (process.env.BENCH_TRACE) console.log(`  ${Math.round(performance.now() - t)} ms  ${text.replace(/\s+/g, ' ').trim().slice(0, 80)}`);
  return out;
};
const counted = (q: Queryable): Queryable => ({
  query: (text, params) => (statements++, trace(text, () => q.query(text, params))),
  run: (text, params) => (statements++, q.run(text, params)),
  exec: (text) => (statements++, q.exec(text)),
  copyIn: (target, data) => (statements++, trace(`COPY ${target}`, () => q.copyIn(target, data))),
});
const db: Db = { ...raw, tx: (fn) => raw.tx((q) => fn(counted(q))) } as Db;

const t0 = Date.now();
for (let c = 0; c < CUSTOMERS; c++) {
  const [cust] = await raw.query<{ id: number }>(`INSERT INTO customer (name, code, notify_sms) VALUES ($1, $2, true) RETURNING id`, [`Bench chain ${c}`, `BC${c}`]);
  const [scene] = await raw.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Ward') RETURNING id`, [cust.id, `BCS${c}`]);
  const [trigger] = await raw.query<{ id: number }>(
    `INSERT INTO alarm_trigger (customer_id, name, categories, channels, repeat_times, repeat_interval_min, escalate_after_min)
     VALUES ($1, 'Duty', '{temp_high,temp_low,hum_high,hum_low}', '{email,sms}', 3, 1, 5) RETURNING id`,
    [cust.id],
  );
  await raw.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on, temp_min, temp_max, trigger_id) SELECT $1, $2, 'Fridge ' || g, 2, true, 2, 8, $3 FROM generate_series(1, $4::int) g`,
    [cust.id, scene.id, trigger.id, CARRIERS],
  );
  // A Chinese nurse at level 1 and an English pharmacist at level 2: the pass renders in both languages.
  await raw.query(
    `INSERT INTO contact (customer_id, name, email, phone, alarm_level, locale) VALUES
       ($1, 'Nurse', 'nurse.c' || $2 || '@bench.test', '1380000' || lpad($2::text, 4, '0'), 1, 'zh-CN'),
       ($1, 'Pharmacist', 'pharm.c' || $2 || '@bench.test', '1390000' || lpad($2::text, 4, '0'), 2, 'en-US')`,
    [cust.id, c],
  );
  await raw.query(`INSERT INTO alarm_trigger_contact (trigger_id, contact_id, customer_id) SELECT $1, id, $2 FROM contact WHERE customer_id = $2`, [trigger.id, cust.id]);
}
// The exceptions, one per carrier, opened 2 minutes ago and told then at level 1: the repeat is due.
await raw.query(
  `INSERT INTO exception_record (customer_id, carrier_id, type, category, status, ongoing, start_ts, last_ts, first_value, peak_value, limit_min, limit_max,
                                 notice_level, notice_repeats, notified_at, level_since, chain_open)
   SELECT k.customer_id, k.id, 'data', 'temp_high', 0, true, now() - interval '2 minutes', now(), 9.5, 10.2, 2, 8, 1, 0, now() - interval '2 minutes', now() - interval '2 minutes', true
     FROM (SELECT id, customer_id FROM carrier ORDER BY id LIMIT $1) k`,
  [EXCEPTIONS],
);
await raw.exec('ANALYZE');
console.log(`${label}: ${CUSTOMERS} customers, ${CUSTOMERS * CARRIERS} carriers, ${EXCEPTIONS} ongoing exceptions with a repeat due (setup ${Date.now() - t0} ms)`);

const timed = async <T>(run: () => Promise<T>) => {
  statements = 0;
  const t = performance.now();
  const out = await run();
  return { out, ms: Math.round(performance.now() - t), statements };
};

const now = Date.now();
const pass = await timed(() => db.tx((q) => advanceChains(q, now)));
console.log(`pass: ${pass.ms} ms, ${pass.statements} statements, ${pass.out.steps} steps, ${pass.out.notices} notices`);
const quiet = await timed(() => db.tx((q) => advanceChains(q, now + 1000)));
console.log(`quiet pass: ${quiet.ms} ms, ${quiet.statements} statements, ${quiet.out.steps} steps`);

// The floor: the same rows' chain columns written once, and as many notices inserted with a fixed text.
const baseline = await timed(() =>
  db.tx(async (q) => {
    await q.query(`UPDATE exception_record SET notice_repeats = notice_repeats + 1, notified_at = $1 WHERE chain_open`, [new Date(now)]);
    await q.query(
      `INSERT INTO notice_log (customer_id, exception_id, type, channel, recipient, subject, content)
       SELECT e.customer_id, e.id, 'alarm', ch, 'x', 'Bench', 'Fridge above the upper limit 9.5C (range 2-8)' FROM exception_record e CROSS JOIN unnest('{email,sms}'::text[]) ch WHERE e.chain_open`,
    );
  }),
);
console.log(`baseline (bare writes): ${baseline.ms} ms, ${baseline.statements} statements`);

const ok = pass.out.steps === EXCEPTIONS && pass.out.notices === 2 * EXCEPTIONS && quiet.out.steps === 0;
console.log(`exceptions=${EXCEPTIONS} pass_ms=${pass.ms} statements=${pass.statements} notices=${pass.out.notices} quiet_ms=${quiet.ms} baseline_ms=${baseline.ms}${ok ? '' : ' WRONG'}`);
await drop();
if (!ok || pass.ms >= 1000) process.exitCode = 1;
