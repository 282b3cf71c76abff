import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDb } from '../../../test/db.js';
import { Bus, REMOTE, type LiveReading, type Origin } from '../events.js';
import { Cluster, ClusterRefusal } from './cluster.js';
import { Health } from '../health/health.js';

const quiet = { info() {}, warn() {}, error() {} };
const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const reading = (sensorId: number): LiveReading => ({ customerId: 1, sensorId, devNo: `T${sensorId}`, carrierId: null, ts: Date.now(), temp: 5 });

describe('the replicas of one database on PGlite', () => {
  it('are one process: nothing to listen to, every claim granted', async () => {
    const c = new Cluster({ replicaId: 'solo', bus: new Bus(), log: quiet });
    await c.start();
    await c.join({ exclusive: true, reason: 'embedded broker' });
    expect(await c.lead('simulator')).toBe(true);
    expect(c.up).toBe(true);
    await c.stop();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the replicas of one PostgreSQL database', () => {
  let url: string;
  let drop: () => Promise<void>;
  const started: Cluster[] = [];
  const replica = async (replicaId: string, bus = new Bus(), health?: Health) => {
    const c = new Cluster({ databaseUrl: url, replicaId, bus, log: quiet, peerPollMs: 100, fault: health?.fault('cluster') });
    started.push(c);
    await c.start();
    return c;
  };

  beforeAll(async () => {
    const d = await freshDb();
    url = d.url!;
    // The clusters use their own connections; the pool is not needed.
    await d.db.close();
    drop = async () => {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    };
  });
  afterAll(async () => {
    for (const c of started) await c.stop();
    await drop();
  });

  it('hand every committed fact of one replica to the others, once, marked remote, in order', async () => {
    const busA = new Bus();
    const busB = new Bus();
    const a = await replica('a', busA);
    const b = await replica('b', busB);
    await a.join({ exclusive: false, reason: 'shared subscription' });
    await b.join({ exclusive: false, reason: 'shared subscription' });
    await until(() => a.peers === 1 && b.peers === 1, 'the replicas to count each other');

    const onB: [number, Origin][] = [];
    const onA: number[] = [];
    busB.on('reading', (r, origin) => onB.push([r.sensorId, origin]));
    busA.on('reading', (r) => onA.push(r.sensorId));
    // One commit of 3,000 readings: many payloads, one statement.
    for (let i = 0; i < 3000; i++) busA.emit('reading', reading(i));
    busA.emit('exception', { customerId: 1, exceptionId: 9, carrierId: null, sensorId: 5, category: 'temp_high', ongoing: true });
    await until(() => onB.length === 3000, '3,000 readings on b');
    expect(onB.map(([id]) => id)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(onB.every(([, o]) => o === REMOTE)).toBe(true);
    // Nothing comes back to where it started, and what arrived is not sent on again.
    await new Promise((r) => setTimeout(r, 200));
    expect(onA).toHaveLength(3000);
    expect(a.received).toBe(0);
    expect(b.received).toBe(3001);
  });

  it('refuse a second console with the same REPLICA_ID, and the embedded broker beside others', async () => {
    const twin = await replica('a');
    await expect(twin.join({ exclusive: false, reason: 'shared subscription' })).rejects.toThrow(/REPLICA_ID "a"/);
    const embedded = await replica('c');
    const refusal = await embedded.join({ exclusive: true, reason: 'embedded broker' }).catch((e) => e);
    expect(refusal).toBeInstanceOf(ClusterRefusal);
    // The refusal names the running replicas and what to set.
    expect(refusal.message).toMatch(/Coldwatch consoles (a, b|b, a) are already running/);
    expect(refusal.message).toMatch(/MQTT_URL .* MQTT_SUBSCRIPTION=shared/);
    const exclusive = await replica('d');
    await expect(exclusive.join({ exclusive: true, reason: 'exclusive subscription' })).rejects.toThrow(/MQTT_SUBSCRIPTION=shared on every replica/);
  });

  it('give a role to one replica only, and free everything when a replica ends', async () => {
    const [a, b] = started;
    expect(await a.lead('simulator')).toBe(true);
    expect(await b.lead('simulator')).toBe(false);
    for (const c of started.splice(0)) await c.stop();
    // Locks die with their connection: the embedded broker may now run, and then nobody beside it.
    const alone = await replica('e');
    await alone.join({ exclusive: true, reason: 'embedded broker' });
    const late = await replica('f');
    await expect(late.join({ exclusive: false, reason: 'shared subscription' })).rejects.toThrow(/Coldwatch console e is running on this database with the embedded MQTT broker/);
    for (const c of started.splice(0)) await c.stop();
  });

  it('come back after losing the channel, take their locks again and make everyone forget the directory', async () => {
    const health = new Health(() => quiet);
    const busA = new Bus();
    const busB = new Bus();
    const a = await replica('a2', busA);
    const b = await replica('b2', busB, health);
    await a.join({ exclusive: false, reason: 'shared subscription' });
    await b.join({ exclusive: false, reason: 'shared subscription' });
    await until(() => a.peers === 1, 'a to see b');
    const forgotten: { at: 'a' | 'b'; origin: Origin }[] = [];
    busA.on('directory', (e, origin) => Object.keys(e).length === 0 && forgotten.push({ at: 'a', origin }));
    busB.on('directory', (e, origin) => Object.keys(e).length === 0 && forgotten.push({ at: 'b', origin }));

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'coldwatch/b2'`);
    await until(() => health.fault('cluster').active, 'the cluster fault');
    expect(b.up).toBe(false);
    await until(() => b.up && !health.fault('cluster').active, 'b to listen again', 10_000);
    // b forgets (it may have missed invalidations) and tells a to forget (a's may have been lost on the way).
    await until(() => forgotten.length === 2, 'both to forget');
    expect(forgotten).toEqual(expect.arrayContaining([{ at: 'b', origin: undefined }, { at: 'a', origin: REMOTE }]));
    // Its membership is held again: the embedded broker is still refused.
    const c = await replica('c2');
    await expect(c.join({ exclusive: true, reason: 'embedded broker' })).rejects.toThrow(/already running/);
    const got: number[] = [];
    busA.on('reading', (r) => got.push(r.sensorId));
    busB.emit('reading', reading(42));
    await until(() => got.includes(42), 'a reading after the reconnect');
    await admin.end();
  });
});
