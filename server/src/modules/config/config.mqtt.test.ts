import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulation, type Simulation } from '@coldwatch/simulator';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import type { TestCtx } from '../../../test/helper.js';
import { startIngest, type RunningIngest } from '../../ingest/index.js';
import { until } from '../../ingest/test-fixtures.js';

let t: TestCtx;
let a: Records;
withTwoCustomers((c) => ({ t, a } = c));

/** The whole cycle over the embedded broker, with the demo's simulated gateway answering. */
describe('a configuration through the broker to a gateway and back', () => {
  let ingest: RunningIngest;
  let sim: Simulation;
  let stranger: number;
  beforeAll(async () => {
    ingest = await startIngest(t.deps, { mqttPort: 0, mqttPortExplicit: false, presence: false });
    // A sensor the console lists on this gateway but the gateway does not have.
    stranger = (await call(t, a.cookie, 'POST', '/service/sensor/add', { devNo: 'A1GHOST', type: 'zigbee_th', gatewayId: a.gatewayId })).id;
    sim = startSimulation({
      url: `mqtt://127.0.0.1:${ingest.mqttPort}`,
      gateways: [{ sn: a.gatewaySn, secret: a.secret, sensors: [{ dev: a.devNo, kind: 'th', setpoint: 5 }] }],
      intervalMs: 3_600_000,
      heartbeatMs: 3_600_000,
      gapEveryMs: 0,
      ackDelayMs: 50,
    });
    // Connected and subscribed: its first heartbeat has been stored.
    await until(async () => !!(await t.db.one(`SELECT 1 FROM gateway WHERE id = $1 AND last_seen_at IS NOT NULL`, [a.gatewayId])), 'the simulated gateway', 15_000);
  }, 60_000);
  afterAll(async () => {
    await sim?.stop();
    await ingest?.stop();
  });

  const stateOf = async (devNo: string) => (await call(t, a.cookie, 'GET', `/service/sensor/configLog?iDisplayStart=0&iDisplayLength=5&devNo=${devNo}`)).rows[0];

  it('publishes the command at once, and the gateway\'s ack ends it', async () => {
    expect(await call(t, a.cookie, 'POST', '/service/sensor/config', { ids: [a.sensorId], kind: 'collect', collect: { sampleInterval: 300 } })).toEqual({ commands: 1, published: 1 });
    await until(async () => (await stateOf(a.devNo))?.status === 'end', 'the ack', 10_000);
    expect(await stateOf(a.devNo)).toMatchObject({ status: 'end', content: { sampleInterval: 300 } });
  });

  it('records the gateway\'s refusal with its reason', async () => {
    await call(t, a.cookie, 'POST', '/service/sensor/config', { ids: [stranger], kind: 'network', network: { txPower: 12 } });
    await until(async () => (await stateOf('A1GHOST'))?.status === 'fail', 'the refusal', 10_000);
    expect((await stateOf('A1GHOST')).detail).toBe('no sensor A1GHOST on this gateway');
  });
});
