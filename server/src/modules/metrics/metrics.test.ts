import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { enrol } from '../../ingest/test-fixtures.js';
import { startAlarm } from '../../alarm/index.js';
import { ingest, site } from '../../alarm/testkit.js';

/* /metrics in Prometheus text: a reading we send is counted, a reject by its reason, HTTP by route. */

let t: TestCtx;
beforeAll(async () => {
  t = await setup({ METRICS_TOKEN: 'scrape-me-please' });
}, 180_000);
afterAll(() => t.close());

const scrape = async () => {
  const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me-please' } });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toContain('text/plain');
  return r.body;
};
const value = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

describe('/metrics', () => {
  it('counts a reading that we publish, and a refused one by its reason', async () => {
    const g = await enrol(t.db, t.tenants.a.customerId, 1);
    const before = await scrape();
    const post = (body: unknown) =>
      t.app.inject({ method: 'POST', url: `/ingest/v1/${g.sn}/data`, headers: { authorization: `Bearer ${g.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    await post({ readings: [{ dev: g.sensors[0].dev, ts: Date.now() - 1000, temp: 4 }, { dev: g.sensors[0].dev, ts: Date.now() - 2000, temp: 1e39 }] });
    const after = await scrape();
    expect(value(after, 'coldwatch_readings_total{outcome="accepted"}')).toBe(value(before, 'coldwatch_readings_total{outcome="accepted"}') + 1);
    expect(value(after, 'coldwatch_rejects_total{reason="out_of_range"}')).toBe(1);
    expect(after).toMatch(/^coldwatch_writer_queue_readings 0$/m);
    expect(after).toMatch(/^coldwatch_http_request_seconds_count\{route="\/ingest\/v1\/:sn\/:kind",method="POST",status="2xx"\} \d+$/m);
  });

  it('names skipped notices (alarms that went to nobody) by their status', async () => {
    expect(await scrape()).not.toMatch(/^coldwatch_notices\{status="3"\}/m);
    await t.db.query(
      `INSERT INTO notice_log (customer_id, type, channel, recipient, content, status, result) VALUES ($1, 'alarm', 'email', '', 'x', 3, 'noRecipient')`,
      [t.tenants.a.customerId],
    );
    const text = await scrape();
    expect(value(text, 'coldwatch_notices{status="skipped"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/^coldwatch_notices\{status="3"\}/m);
  });

  it('observes the alarm latency of an exception the evaluator opens', async () => {
    const before = value(await scrape(), 'coldwatch_alarm_latency_seconds_count');
    const s = await site(t.db, t.tenants.a.customerId, { name: 'Metrics Fridge' });
    const alarm = startAlarm(t.deps, { pollMs: 60_000, noticePoll: false });
    try {
      await ingest(t.db, s, [[Date.now() - 120_000, 5], [Date.now() - 60_000, 12]]);
      await alarm.drain();
    } finally {
      await alarm.stop();
    }
    const after = await scrape();
    expect(Number.isNaN(before) ? 0 : before).toBe(0);
    expect(value(after, 'coldwatch_alarm_latency_seconds_count')).toBe(1);
    expect(value(after, 'coldwatch_alarm_latency_seconds_sum')).toBeGreaterThanOrEqual(0);
  });

  it('needs the token when METRICS_TOKEN is set', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token!!' } })).statusCode).toBe(401);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let open: TestCtx;
  beforeAll(async () => {
    open = await setup();
  }, 180_000);
  afterAll(() => open.close());

  it('answers a scraper on loopback and no one else', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const r = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(r.statusCode, remoteAddress).toBe(200);
      expect(r.headers['content-type']).toContain('text/plain');
    }
    for (const remoteAddress of ['10.0.0.8', '192.0.2.1', '::ffff:10.0.0.8', '2001:db8::1']) {
      const r = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(r.statusCode, remoteAddress).toBe(401);
      expect(r.headers['content-type']).toContain('text/plain');
    }
  });
});
