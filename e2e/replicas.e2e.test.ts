import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { startConsole, type RunningConsole } from './support/console.js';
import { FEED } from './support/mqtt.js';
import { startSmtp } from './support/smtp.js';
import { startMosquitto, type Mosquitto } from '../server/src/ingest/test-fixtures.js';

/**
 * Two replicas of the compiled console on one PostgreSQL and one private Mosquitto, as
 * docs/scaling.md runs them (MQTT_SUBSCRIPTION=shared, a REPLICA_ID each), driven from
 * outside only: gateways publish through the broker, a browser's live stream listens on
 * replica A, the API is called over HTTP, the SMTP server counts the mails.
 */
interface Sensor {
  id: number;
  dev: string;
  sn: string;
  tempMin: number;
  tempMax: number;
}

const READINGS = 10_000;
const EXCURSIONS = 20;

describe.skipIf(!process.env.DATABASE_URL)('two replicas on one PostgreSQL and one Mosquitto', () => {
  let mosq: Mosquitto;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let a: RunningConsole;
  let b: RunningConsole;
  let db: pg.Client;
  let env: Record<string, string>;
  const gateways = new Map<string, MqttClient>();

  const login = async (c: RunningConsole) => {
    const res = await fetch(`${c.url}/service/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'demo', password: 'demo123' }) });
    expect(res.status).toBe(200);
    return res.headers.getSetCookie().map((s) => s.split(';')[0]).join('; ');
  };
  const accepted = async (c: RunningConsole) => {
    const text = await (await fetch(`${c.url}/metrics`)).text();
    return Number(/coldwatch_readings_total\{outcome="accepted"\} (\d+)/.exec(text)?.[1] ?? NaN);
  };
  const gateway = async (sn: string) => {
    let c = gateways.get(sn);
    if (!c) gateways.set(sn, (c = await mqtt.connectAsync(mosq.url, { clientId: sn, reconnectPeriod: 0 })));
    return c;
  };
  const publish = async (sn: string, readings: { dev: string; ts: number; temp: number }[]) => (await gateway(sn)).publishAsync(`cc/${sn}/up/data`, JSON.stringify({ readings }), { qos: 1 });
  const until = async <T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** What a failed run needs to be understood: the replicas' warnings and errors, the broker's session changes. */
  const diagnose = async () => {
    const worth = (log: string) => log.split('\n').filter((l) => /"level":(40|50|60)|lost|deadlock|victim/i.test(l)).slice(-30).join('\n');
    const broker = (await mosq.log()).split('\n').filter((l) => /coldwatch-ingest/.test(l) && !/PUBACK|PUBLISH/.test(l)).slice(-30).join('\n');
    console.log(`replica a:\n${worth(a.log())}\nreplica b:\n${worth(b.log())}\nbroker:\n${broker}`);
  };

  beforeAll(async () => {
    // Mosquitto's own limits (20 in flight, 1,000 queued per session), as a broker installed with defaults has them.
    mosq = await startMosquitto({ log: true, brokerDefaults: true });
    smtp = await startSmtp();
    env = { MQTT_URL: mosq.url, MQTT_SUBSCRIPTION: 'shared', SMTP_URL: smtp.url, SIMULATOR: '0' };
    a = await startConsole({ ...env, REPLICA_ID: 'a' });
    b = await startConsole({ ...env, REPLICA_ID: 'b' }, { databaseUrl: a.databaseUrl });
    db = new pg.Client({ connectionString: a.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    for (const c of gateways.values()) await c.endAsync(true);
    await db?.end();
    await b?.stop();
    await a?.stop();
    await smtp?.stop();
    await mosq?.stop();
  });

  it('refuses a third console with the embedded broker on the same database, and says what to set', async () => {
    const refused = await startConsole({ SIMULATOR: '0', REPLICA_ID: 'c' }, { databaseUrl: a.databaseUrl }).then(
      async (c) => (await c.stop(), 'started'),
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/console exited with 1/);
    expect(refused).toMatch(/Coldwatch could not start: Coldwatch consoles (a, b|b, a) are already running on this database\. The embedded MQTT broker serves one console only/);
    expect(refused).toMatch(/MQTT_URL .*MQTT_SUBSCRIPTION=shared/);
    // And each replica says who it is.
    expect(await (await fetch(`${a.url}/healthz`)).json()).toMatchObject({ ok: true, replica: 'a' });
    const ready = await (await fetch(`${b.url}/readyz`)).json();
    expect(ready.checks.cluster).toEqual({ ok: true, detail: 'replica b, 1 other replica(s) on this database' });
  });

  it('shows on replica A every live value, whichever replica consumed it', async () => {
    const cookie = await login(a);
    const ac = new AbortController();
    const stream = await fetch(`${a.url}/service/live/stream`, { headers: { cookie }, signal: ac.signal });
    expect(stream.status).toBe(200);
    const seen = new Set<number>();
    const reading = async () => {
      const decoder = new TextDecoder();
      let buf = '';
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (!block.startsWith('event: reading')) continue;
          const data = JSON.parse(block.slice(block.indexOf('data: ') + 6));
          if (data.devNo === FEED.dev) seen.add(Math.round(data.temp * 100));
        }
      }
    };
    const reader = reading().catch(() => undefined);
    const before = { a: await accepted(a), b: await accepted(b) };
    const sent: number[] = [];
    for (let i = 0; i < 40; i++) {
      const temp = 3 + i * 0.05;
      sent.push(Math.round(temp * 100));
      await publish(FEED.sn, [{ dev: FEED.dev, ts: Date.now(), temp }]);
      await new Promise((r) => setTimeout(r, 100));
    }
    await until('40 live values on replica A', async () => seen.size, (n) => n >= 40, 10_000);
    expect([...seen].sort((x, y) => x - y)).toEqual(sent);
    // Both replicas consumed some of them (the broker hands the shared subscription's messages round robin).
    const after = { a: await accepted(a), b: await accepted(b) };
    expect(after.a - before.a).toBeGreaterThan(0);
    expect(after.b - before.b).toBeGreaterThan(0);
    expect(after.a - before.a + (after.b - before.b)).toBe(40);
    ac.abort();
    await reader;
  });

  it(`stores ${READINGS.toLocaleString('en-US')} readings once, files each of ${EXCURSIONS} excursions once and mails it once`, async ({ onTestFailed }) => {
    onTestFailed(diagnose);
    const sensors = (
      await db.query<Sensor>(
        `SELECT s.id, s.dev_no AS dev, g.sn, c.temp_min::float AS "tempMin", c.temp_max::float AS "tempMax"
           FROM sensor s JOIN gateway g ON g.id = s.gateway_id JOIN carrier c ON c.id = s.carrier_id
          WHERE c.alarm_on AND c.temp_min IS NOT NULL AND c.temp_max IS NOT NULL
            AND (SELECT count(*) FROM carrier_contact cc JOIN contact k ON k.id = cc.contact_id WHERE cc.carrier_id = c.id AND k.email <> '') = 1
          ORDER BY s.id`,
      )
    ).rows;
    expect(sensors.length).toBeGreaterThanOrEqual(5);
    const rounds = Math.ceil(READINGS / sensors.length);
    const spacing = Math.floor((rounds - 4) / EXCURSIONS);
    // Every excursion one round out of range (50.01 °C, 50.02 °C, …: each mail names its own), then back in range.
    const excursionAt = new Map<number, { sensor: number; temp: number }>();
    for (let k = 0; k < EXCURSIONS; k++) excursionAt.set(2 + k * spacing, { sensor: k % sensors.length, temp: 50 + (k + 1) / 100 });
    const start = Date.now() + 1_000;
    const byGateway = new Map<string, { dev: string; ts: number; temp: number }[][]>();
    let n = 0;
    for (let r = 0; r < rounds && n < READINGS; r++) {
      const ts = start + r * 10;
      const msgs = new Map<string, { dev: string; ts: number; temp: number }[]>();
      sensors.forEach((s, i) => {
        if (n >= READINGS) return;
        n++;
        const ex = excursionAt.get(r);
        const temp = ex && ex.sensor === i ? ex.temp : Math.round((s.tempMin + s.tempMax) * 50) / 100;
        let m = msgs.get(s.sn);
        if (!m) msgs.set(s.sn, (m = []));
        m.push({ dev: s.dev, ts, temp });
      });
      for (const [sn, m] of msgs) {
        if (!byGateway.has(sn)) byGateway.set(sn, []);
        byGateway.get(sn)!.push(m);
      }
    }
    expect(n).toBe(READINGS);
    // Each gateway publishes its messages in order, all gateways at once.
    await Promise.all([...byGateway].map(async ([sn, msgs]) => {
      for (const m of msgs) await publish(sn, m);
    }));

    const ids = sensors.map((s) => s.id);
    const stored = await until(
      'every reading stored',
      async () => Number((await db.query(`SELECT count(*) AS n FROM reading WHERE sensor_id = ANY($1) AND ts >= to_timestamp($2 / 1000.0)`, [ids, start])).rows[0].n),
      (v) => v >= READINGS,
    );
    expect(stored).toBe(READINGS);
    const exceptions = await until(
      'every excursion filed and closed',
      async () => (await db.query<{ peak: number; ongoing: boolean }>(`SELECT peak_value::float AS peak, end_ts IS NULL AS ongoing FROM exception_record WHERE sensor_id = ANY($1) AND start_ts >= to_timestamp($2 / 1000.0) ORDER BY peak_value`, [ids, start])).rows,
      (rows) => rows.length >= EXCURSIONS && rows.every((e) => !e.ongoing),
    );
    expect(exceptions.map((e) => Math.round(e.peak * 100))).toEqual(Array.from({ length: EXCURSIONS }, (_, k) => 5001 + k));
    // The mail writes the peak as it is ("50.1°C" for 50.10).
    const peaks = () => smtp.mails.flatMap((m) => /\b(50\.\d\d?)°C/.exec(m.text)?.[1] ?? []).map((p) => Number(p).toFixed(2)).sort();
    const notices = async () =>
      (await db.query(`SELECT e.peak_value::float AS peak, n.status, n.result FROM notice_log n JOIN exception_record e ON e.id = n.exception_id WHERE e.sensor_id = ANY($1) AND e.start_ts >= to_timestamp($2 / 1000.0) ORDER BY 1`, [ids, start])).rows;
    await until('every mail', async () => ({ peaks: peaks(), notices: await notices() }), (v) => v.peaks.length >= EXCURSIONS);
    await new Promise((r) => setTimeout(r, 2_000));
    // Each excursion's mail once, and no other.
    expect(peaks()).toEqual(Array.from({ length: EXCURSIONS }, (_, k) => (50 + (k + 1) / 100).toFixed(2)));
    // Still no more rows after the broker and the replicas settled: nothing was written twice or late.
    expect(Number((await db.query(`SELECT count(*) AS n FROM reading WHERE sensor_id = ANY($1) AND ts >= to_timestamp($2 / 1000.0)`, [ids, start])).rows[0].n)).toBe(READINGS);
  });

  it('keeps each replica on its own broker session: each connected once, none taken over', async ({ onTestFailed }) => {
    onTestFailed(diagnose);
    const log = await mosq.log();
    const connects = (id: string) => log.split('\n').filter((l) => l.includes(`New client connected`) && l.includes(` as ${id} (`)).length;
    expect(connects('coldwatch-ingest-a')).toBe(1);
    expect(connects('coldwatch-ingest-b')).toBe(1);
    expect(log).not.toMatch(/coldwatch-ingest\S* already connected, closing old connection/);
  });

  it('refuses a secret reset on replica A at once for ingest through replica B', async () => {
    const gw = (await db.query<{ id: number }>(`SELECT id FROM gateway WHERE sn = $1`, [FEED.sn])).rows[0];
    const send = (secret: string) =>
      fetch(`${b.url}/ingest/v1/${FEED.sn}/data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ readings: [{ dev: FEED.dev, ts: Date.now(), temp: 4.2 }] }),
      });
    // Replica B knows the gateway (and keeps what it knows).
    expect((await send(FEED.secret)).status).toBe(200);
    const cookie = await login(a);
    const res = await fetch(`${a.url}/service/gateway/resetSecret?id=${gw.id}`, { method: 'POST', headers: { cookie } });
    const body = await res.json();
    expect(body.state.code).toBe(200000);
    expect((await send(FEED.secret)).status).toBe(401);
    expect((await send(body.result.secret)).status).toBe(200);
  });
});
