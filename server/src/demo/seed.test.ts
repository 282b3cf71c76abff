import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../test/db.js';
import type { Db } from '../platform/db/client.js';
import { loadConfig } from '../config.js';
import { Bus } from '../platform/events.js';
import { verifyPassword } from '../platform/auth/password.js';
import { verifyGatewaySecret } from '../ingest/secret.js';
import { startAlarm } from '../alarm/index.js';
import { CARRIERS, FEED_GATEWAY, demoGateways, seedDemo } from './seed.js';
import { generateSeries, seedOf } from './history.js';
import { rollupAll } from '../ingest/rollup.js';

describe('demo seed', () => {
  let db: Db;
  let drop: () => Promise<void>;
  const now = Date.UTC(2026, 0, 15, 6, 0, 0);

  beforeAll(async () => {
    ({ db, drop } = await freshDb());
  });
  afterAll(async () => {
    await drop();
  });

  it('creates the demo customer, its logins, the tree, devices and seven days of history', async () => {
    const first = await seedDemo(db, { now });
    expect(first.created).toBe(true);
    expect(first.readings).toBeGreaterThan(30_000);

    const admin = await db.one<{ password_hash: string }>(`SELECT password_hash FROM app_user WHERE account = 'admin'`);
    expect(await verifyPassword(admin!.password_hash, 'admin123')).toBe(true);
    const demo = await db.one<{ password_hash: string; is_admin: boolean; code: string; name: string }>(
      `SELECT u.password_hash, u.is_admin, c.code, c.name FROM app_user u JOIN customer c ON c.id = u.customer_id WHERE u.account = 'demo'`,
    );
    expect(demo).toMatchObject({ is_admin: true, code: 'DEMO', name: 'Demo Hospital' });
    expect(await verifyPassword(demo!.password_hash, 'demo123')).toBe(true);

    const types = (await db.query<{ type: number }>(`SELECT DISTINCT type FROM carrier ORDER BY type`)).map((r) => r.type);
    expect(types).toEqual([1, 2, 3, 4]);
    const scenes = await db.query<{ label: string; parent: string | null }>(
      `SELECT s.label, p.label AS parent FROM scene s LEFT JOIN scene p ON p.id = s.parent_id ORDER BY s.sort`,
    );
    expect(scenes).toContainEqual({ label: 'Pharmacy', parent: 'Main Building' });
    expect(scenes).toContainEqual({ label: 'Fleet', parent: null });

    const span = await db.one<{ lo: Date; hi: Date }>(`SELECT min(ts) AS lo, max(ts) AS hi FROM reading`);
    expect(now - new Date(span!.lo).getTime()).toBeGreaterThanOrEqual(7 * 86_400_000 - 3 * 60_000);
    expect(now - new Date(span!.hi).getTime()).toBeLessThan(5 * 60_000);
    const sns = (await db.query<{ sn: string }>(`SELECT sn FROM gateway`)).map((r) => r.sn);
    for (const sn of sns) expect(sn).toMatch(sn === FEED_GATEWAY.sn ? /^DEMO0000FEED$/ : /^[0-9A-F]{12}$/);
  });

  it('gives the demo logins a mobile number and an e-mail, so their profiles save as they are', async () => {
    const rows = await db.query<{ account: string; mobile: string; email: string }>(`SELECT account, mobile, email FROM app_user WHERE account IN ('admin', 'demo') ORDER BY account`);
    expect(rows).toEqual([
      { account: 'admin', mobile: '13900000000', email: 'admin@example.com' },
      { account: 'demo', mobile: '13900000001', email: 'demo@example.com' },
    ]);
  });

  it('leaves the hand-driven gateway to people: its password, its sensor, its zone and contact, no history', async () => {
    const gw = await db.one<{ secret_hash: string }>(`SELECT secret_hash FROM gateway WHERE sn = $1`, [FEED_GATEWAY.sn]);
    expect(verifyGatewaySecret(gw!.secret_hash, 'feedfeed')).toBe(true);
    const s = await db.one<{ type: string; temp_min: number; temp_max: number; n: number; emails: string[] }>(
      `SELECT s.type, c.temp_min, c.temp_max,
              (SELECT count(*)::int FROM reading r WHERE r.sensor_id = s.id) AS n,
              (SELECT array_agg(k.email) FROM carrier_contact cc JOIN contact k ON k.id = cc.contact_id WHERE cc.carrier_id = c.id) AS emails
         FROM sensor s JOIN carrier c ON c.id = s.carrier_id JOIN gateway g ON g.id = s.gateway_id
        WHERE s.dev_no = $1 AND g.sn = $2 AND c.name = 'Test Fridge'`,
      [FEED_GATEWAY.dev, FEED_GATEWAY.sn],
    );
    expect(s).toEqual({ type: 'zigbee_th', temp_min: 2, temp_max: 8, n: 0, emails: ['coldroom@example.com'] });

    const simulated = await demoGateways(db);
    expect(simulated.map((g) => g.sn)).not.toContain(FEED_GATEWAY.sn);
    expect(simulated.flatMap((g) => g.sensors.map((x) => x.dev))).not.toContain(FEED_GATEWAY.dev);
    for (const g of simulated) {
      const row = await db.one<{ secret_hash: string }>(`SELECT secret_hash FROM gateway WHERE sn = $1`, [g.sn]);
      expect(verifyGatewaySecret(row!.secret_hash, g.secret)).toBe(true);
    }
  });

  it('queues the seeded history for the rollups, which then cover every reading', async () => {
    expect((await db.one<{ n: number }>('SELECT count(*)::int AS n FROM rollup_pending'))!.n).toBeGreaterThan(1000);
    await rollupAll(db);
    const raw = (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM reading'))!.n;
    expect((await db.one<{ n: number }>('SELECT sum(n)::int AS n FROM reading_5m'))!.n).toBe(raw);
    expect((await db.one<{ n: number }>('SELECT sum(n)::int AS n FROM reading_1h'))!.n).toBe(raw);
  });

  it('is idempotent: a second run changes nothing', async () => {
    const count = async () =>
      db.one(`SELECT (SELECT count(*)::int FROM customer) AS customers, (SELECT count(*)::int FROM carrier) AS carriers,
                     (SELECT count(*)::int FROM sensor) AS sensors, (SELECT count(*)::int FROM reading) AS readings,
                     (SELECT value FROM setting WHERE key = 'demo.gateway_secrets') AS secrets`);
    const before = await count();
    const again = await seedDemo(db, { now: now + 60_000 });
    expect(again.created).toBe(false);
    expect(await count()).toEqual(before);
  });

  it('files the planned excursions of the history as exception records once the alarm evaluator has run', async () => {
    const config = loadConfig({ VITEST: '1', DEMO: '0', LOG_LEVEL: 'silent' } as any);
    const alarm = startAlarm({ config, db, bus: new Bus(), log: { warn() {}, error() {}, info() {} } as any });
    await alarm.drain();
    await alarm.stop();
    const rows = await db.query<{ dev_no: string; category: string; ongoing: boolean }>(
      `SELECT s.dev_no, e.category, e.ongoing FROM exception_record e JOIN sensor s ON s.id = e.sensor_id WHERE e.type = 'data' ORDER BY e.start_ts`,
    );
    // One exception per planned excursion of the layout, all of them over by now.
    const planned = CARRIERS.flatMap((c) => c.sensors.flatMap((s) => (s.profile.excursions ?? []).map(() => s.dev)));
    expect(rows.map((r) => r.dev_no).sort()).toEqual(planned.sort());
    expect(rows.every((r) => !r.ongoing)).toBe(true);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(['temp_high', 'temp_low', 'hum_high']));
  });
});

describe('demo history', () => {
  it('stays inside the zone except for the planned excursions', () => {
    const to = Date.UTC(2026, 0, 15, 6, 0, 0);
    for (const c of CARRIERS) {
      for (const s of c.sensors) {
        const series = generateSeries(s.profile, seedOf(s.dev), to - 7 * 86_400_000, to, 180_000);
        let runs = 0;
        let out = false;
        series.ts.forEach((_, i) => {
          const t = series.temp[i];
          const h = series.hum[i];
          const o = t < c.temp[0] || t > c.temp[1] || (!!c.hum && h !== null && (h < c.hum[0] || h > c.hum[1]));
          if (o && !out) runs++;
          out = o;
        });
        expect(runs, s.dev).toBe(s.profile.excursions?.length ?? 0);
      }
    }
  });
});
