import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { randomBytes } from 'node:crypto';
import { mqttSuite } from './mqtt-suite.js';
import { startConsumer } from './consumer.js';
import { enrol, startMosquitto, until, type Mosquitto } from './test-fixtures.js';
import { Health } from '../platform/health/health.js';

describe('ingest from an external Mosquitto', () => {
  let mosq: Mosquitto;
  const ctx = mqttSuite({
    env: async () => {
      mosq = await startMosquitto();
      return { MQTT_URL: mosq.url };
    },
    url: () => mosq.url,
    options: () => ({ mqttPort: 0, mqttPortExplicit: false, clientId: 'cw-ext-test', presence: false }),
    close: () => mosq.stop(),
  });

  it('works with the password file and ACL of docs/ingest.md', async () => {
    const a = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const b = await enrol(ctx.t.db, ctx.t.tenants.b.customerId, 1);
    const consolePassword = randomBytes(12).toString('hex');
    const secured = await startMosquitto({
      anonymous: false,
      users: { coldwatch: consolePassword, [a.sn]: a.secret, [b.sn]: b.secret },
      acl: ['user coldwatch', 'topic read cc/+/up/#', 'topic write cc/+/down/#', '', 'pattern write cc/%u/up/#', 'pattern read cc/%u/down/#', ''].join('\n'),
    });
    const consumer = await startConsumer(ctx.t.ingest, { url: `mqtt://coldwatch:${consolePassword}@127.0.0.1:${secured.port}`, clientId: 'cw-acl-test' });
    try {
      const refused = await mqtt.connectAsync(secured.url, { clientId: a.sn, username: a.sn, password: 'wrong', reconnectPeriod: 0 }).then(
        (c) => (c.end(true), 0),
        (err: { code?: number }) => err.code,
      );
      expect([4, 5]).toContain(refused);
      const login = () => mqtt.connectAsync(secured.url, { clientId: a.sn, username: a.sn, password: a.secret, reconnectPeriod: 0 });
      const ts = Date.now();
      // The ACL denies it: Mosquitto drops the message (and the session); b's sensor gets nothing.
      const intruder = await login();
      const gone = new Promise<void>((r) => intruder.once('close', () => r()));
      intruder.publish(`cc/${b.sn}/up/data`, JSON.stringify({ readings: [{ dev: b.sensors[0].dev, ts, temp: 1 }] }), { qos: 1 });
      await Promise.race([gone, new Promise((r) => setTimeout(r, 1000))]);
      await intruder.endAsync(true);
      const gw = await login();
      await gw.publishAsync(`cc/${a.sn}/up/data`, JSON.stringify({ readings: [{ dev: a.sensors[0].dev, ts, temp: 2 }] }), { qos: 1 });
      await until(async () => !!(await ctx.t.db.one(`SELECT 1 FROM reading WHERE sensor_id = $1`, [a.sensors[0].id])), 'the own reading');
      expect(await ctx.t.db.query(`SELECT 1 FROM reading WHERE sensor_id = $1`, [b.sensors[0].id])).toEqual([]);
      await gw.endAsync(true);
    } finally {
      await consumer.close();
      await secured.stop();
    }
  });

  it('loses nothing of a burst larger than the broker\'s default queue (MQTT 5 Receive Maximum)', async () => {
    const gw = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    // Mosquitto's defaults: 20 messages in flight to a 3.1.1 session, 1,000 queued, the rest dropped.
    const plain = await startMosquitto({ brokerDefaults: true });
    const consumer = await startConsumer(ctx.t.ingest, { url: plain.url, clientId: 'cw-burst-test' });
    try {
      const pub = await mqtt.connectAsync(plain.url, { clientId: gw.sn, reconnectPeriod: 0 });
      const t0 = Date.now() - 3_600_000;
      const N = 3_000;
      await Promise.all(
        Array.from({ length: N }, (_, i) => pub.publishAsync(`cc/${gw.sn}/up/data`, JSON.stringify({ readings: [{ dev: gw.sensors[0].dev, ts: t0 + i * 1000, temp: 4 }] }), { qos: 1 })),
      );
      await pub.endAsync();
      const count = async () => Number((await ctx.t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1`, [gw.sensors[0].id]))!.n);
      await until(async () => (await count()) >= N, `${N} readings`, 30_000);
      expect(await count()).toBe(N);
    } finally {
      await consumer.close();
      await plain.stop();
    }
  });

  it('tries a commit that failed for another reason again on the same session: stored once, the session never dropped', async () => {
    const gw = await enrol(ctx.t.db, ctx.t.tenants.a.customerId, 1);
    const broker = new Health(() => ({ error: () => undefined, warn: () => undefined })).fault('broker');
    // A broker of its own: only this consumer takes the message.
    const own = await startMosquitto();
    const consumer = await startConsumer(ctx.t.ingest, { url: own.url, clientId: 'cw-retry-test', fault: broker });
    const handle = ctx.t.ingest.handle.bind(ctx.t.ingest);
    let failures = 1;
    ctx.t.ingest.handle = async (...args) => {
      // Neither the database away (held) nor a refused value (acknowledged and logged): an internal error.
      if (failures-- > 0) throw Object.assign(new Error('could not read block 7 in file "base/1/2"'), { code: 'XX001' });
      return handle(...args);
    };
    try {
      const pub = await mqtt.connectAsync(own.url, { clientId: gw.sn, reconnectPeriod: 0 });
      await pub.publishAsync(`cc/${gw.sn}/up/data`, JSON.stringify({ readings: [{ dev: gw.sensors[0].dev, ts: Date.now(), temp: 4 }] }), { qos: 1 });
      await pub.endAsync();
      await until(async () => !!(await ctx.t.db.one(`SELECT 1 FROM reading WHERE sensor_id = $1`, [gw.sensors[0].id])), 'the reading');
      expect(failures).toBe(-1);
      expect(broker.starts).toBe(0);
      expect(await ctx.t.db.query(`SELECT 1 FROM reading WHERE sensor_id = $1`, [gw.sensors[0].id])).toHaveLength(1);
    } finally {
      ctx.t.ingest.handle = handle;
      await consumer.close();
      await own.stop();
    }
  });
});
