import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, until, type Enrolled } from './test-fixtures.js';
import { startIngest, type RunningIngest } from './index.js';

/*
 * The deaf-ingest watchdog (silence.ts): no message from any gateway for INGEST_SILENCE_S while
 * gateways had been reporting is a fault: /readyz not ready, coldwatch_fault_active 1; the next
 * message ends it. Gateways that were not reporting raise nothing.
 */
let t: TestCtx;
let ingest: RunningIngest;
let gw: Enrolled;

beforeAll(async () => {
  t = await setup();
  gw = await enrol(t.db, t.tenants.a.customerId, 1);
}, 180_000);
afterAll(async () => {
  await ingest?.stop();
  await t?.close();
});

const ready = async () => {
  const r = await t.app.inject({ method: 'GET', url: '/readyz' });
  return { status: r.statusCode, ingest: r.json().checks.ingest.ok as boolean };
};
const faultMetric = async () => /^coldwatch_fault_active\{fault="ingest"\} (\d)$/m.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1];

describe('a deaf ingest', () => {
  it('is not raised while no gateway had been reporting', async () => {
    ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, presence: false, silenceMs: 300 });
    await new Promise((r) => setTimeout(r, 800));
    expect(await ready()).toEqual({ status: 200, ingest: true });
    expect(await faultMetric()).toBe('0');
    await ingest.stop();
  });

  it('is raised when gateways had been reporting and nothing arrives, and ends with the next message', async () => {
    await t.db.query(`UPDATE gateway SET status = 1, last_seen_at = now() WHERE id = $1`, [gw.gatewayId]);
    // Long enough that the message below and the checks after it fit in one silence on a busy
    // machine (with 300 ms the watchdog could raise the fault again before the check).
    ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, presence: false, silenceMs: 3_000 });
    await until(async () => (await ready()).status === 503, 'not ready', 15_000);
    expect(await ready()).toEqual({ status: 503, ingest: false });
    expect(await faultMetric()).toBe('1');

    const post = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/${gw.sn}/data`,
      headers: { authorization: `Bearer ${gw.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ readings: [{ dev: gw.sensors[0].dev, ts: Date.now() - 1000, temp: 4 }] }),
    });
    expect(post.statusCode).toBe(200);
    expect(await ready()).toEqual({ status: 200, ingest: true });
    expect(await faultMetric()).toBe('0');
    expect(t.deps.health!.fault('ingest').starts).toBe(1);
  });
});
