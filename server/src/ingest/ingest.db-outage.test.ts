import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { setup, type TestCtx } from '../../test/helper.js';
import { startPrivatePostgres, type PrivatePostgres } from '../../test/private-pg.js';
import { enrol, until, type Enrolled } from './test-fixtures.js';
import { startIngest, type RunningIngest } from './index.js';

/*
 * The database goes away under a stream of QoS 1 readings through the embedded broker: the
 * process keeps running, nothing is acknowledged that is not stored, and when the database is
 * back every reading is stored exactly once. Needs PostgreSQL (PGlite runs inside the process
 * and cannot go away): the machine's (DATABASE_URL) for terminated connections, a private
 * server of this file for a full stop and start.
 */

interface Line {
  level: number;
  msg: string;
  fault?: string;
}

/** A pino logger whose lines the test reads (the 'database' fault is logged through deps.log). */
function capture(): { log: FastifyBaseLogger; lines: Line[] } {
  const lines: Line[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}

interface Stream {
  client: MqttClient;
  count: () => Promise<{ n: number; distinct: number }>;
  /** Publishes `n` readings one per message, at most 20 unacknowledged, calling `at(i)` before the i-th. */
  send(n: number, at?: (i: number) => Promise<void> | void): Promise<void>;
}

async function stream(t: TestCtx, ingest: RunningIngest, gw: Enrolled): Promise<Stream> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ingest.mqttPort}`, { clientId: gw.sn, username: gw.sn, password: gw.secret, clean: false, reconnectPeriod: 200, reconnectOnConnackError: true, protocolVersion: 4 });
  // A connection the broker cannot judge while the database is away is refused with CONNACK 3: the client tries again.
  client.on('error', () => undefined);
  const dev = gw.sensors[0].dev;
  const base = Date.now() - 5 * 86_400_000;
  return {
    client,
    count: async () => (await t.db.one<{ n: number; distinct: number }>(`SELECT count(*)::int AS n, count(DISTINCT ts)::int AS distinct FROM reading WHERE sensor_id = $1`, [gw.sensors[0].id]))!,
    async send(n, at) {
      const inflight = new Set<Promise<unknown>>();
      for (let i = 0; i < n; i++) {
        await at?.(i);
        const p = client.publishAsync(`cc/${gw.sn}/up/data`, JSON.stringify({ readings: [{ dev, ts: base + i * 60_000, temp: 4 + (i % 10) / 10 }] }), { qos: 1 });
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
        if (inflight.size >= 20) await Promise.race(inflight);
        if (i % 25 === 0) await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(inflight);
    },
  };
}

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL connections terminated mid-stream', () => {
  let t: TestCtx;
  let ingest: RunningIngest;
  let gw: Enrolled;
  beforeAll(async () => {
    t = await setup();
    gw = await enrol(t.db, t.tenants.a.customerId, 1);
    ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, presence: false, silenceMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await ingest?.stop();
    await t?.close();
  });

  it('keeps running and stores every reading exactly once', async () => {
    const { name } = (await t.db.one<{ name: string }>('SELECT current_database() AS name'))!;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const s = await stream(t, ingest, gw);
    let terminated = 0;
    const N = 3000;
    await s.send(N, async (i) => {
      if (i % 400 !== 200) return;
      const r = await admin.query(`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      terminated += r.rows[0].n;
    });
    await admin.end();
    await until(async () => (await s.count()).n >= N, `${N} readings`, 60_000);
    expect(await s.count()).toEqual({ n: N, distinct: N });
    expect(terminated).toBeGreaterThan(0);
    await s.client.endAsync();
  }, 120_000);
});

describe('a PostgreSQL server stopped and started mid-stream', async () => {
  const server: PrivatePostgres | undefined = await startPrivatePostgres().catch(() => undefined);
  let t: TestCtx;
  let ingest: RunningIngest;
  let gw: Enrolled;
  const logs = capture();
  beforeAll(async () => {
    if (!server) return;
    t = await setup({}, { databaseUrl: server.url, log: logs.log });
    gw = await enrol(t.db, t.tenants.a.customerId, 1);
    ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, presence: false, silenceMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await ingest?.stop();
    await t?.close();
    await server?.remove();
  });

  it.skipIf(!server)('answers 503 while it is away, says so once, comes back by itself and stores every reading once', async () => {
    const cookie = await t.login('alpha');
    const s = await stream(t, ingest, gw);
    const N = 1500;
    const away: Record<string, unknown> = {};
    await s.send(N, async (i) => {
      if (i !== 500) return;
      await server!.stop();
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      away.ready = [ready.statusCode, ready.json().checks.database.ok];
      const api = await t.app.inject({ method: 'GET', url: '/service/exception/page', headers: { cookie, 'accept-language': 'en-US' } });
      away.api = [api.statusCode, api.headers['retry-after'], api.json().state.msg];
      const http = await t.app.inject({
        method: 'POST',
        url: `/ingest/v1/${gw.sn}/data`,
        headers: { authorization: `Bearer ${gw.secret}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ readings: [{ dev: gw.sensors[0].dev, ts: Date.now() - 1000, temp: 3 }] }),
      });
      away.http = [http.statusCode, http.headers['retry-after']];
      away.alive = (await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
      await new Promise((r) => setTimeout(r, 3000));
      await server!.start();
    });
    await until(async () => (await s.count().catch(() => ({ n: 0 }))).n >= N, `${N} readings`, 60_000);
    expect(await s.count()).toEqual({ n: N, distinct: N });

    expect(away).toEqual({
      ready: [503, false],
      api: [503, '5', 'The database cannot be reached right now. Try again in a few seconds'],
      http: [503, '5'],
      alive: 200,
    });
    await until(async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200, 'ready again', 15_000);
    // One line when it began, one when it ended; not one per failed batch, pass or poll.
    const faultLines = logs.lines.filter((l) => l.fault === 'database');
    expect(faultLines.map((l) => [l.level, l.msg.replace(/\(.*/, '').replace(/after .*/, 'after …')])).toEqual([
      [50, 'database: unreachable '],
      [40, 'database: reachable again after …'],
    ]);
    expect(logs.lines.filter((l) => l.level >= 50 && l.fault !== 'database')).toEqual([]);
    await s.client.endAsync();
  }, 120_000);
});
