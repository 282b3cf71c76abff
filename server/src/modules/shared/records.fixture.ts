import { afterAll, beforeAll } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { markForRollup } from '../../ingest/rollup.js';

/*
 * Test fixture shared by the record modules' tests and the isolation test: one customer's
 * scene, contact, carrier, gateway and sensor, created through the API as that customer's
 * admin (so the fixture exercises the same path as the product), plus a few readings.
 */

export interface Records {
  cookie: string;
  customerId: number;
  sceneId: number;
  sceneCode: string;
  contactId: number;
  carrierId: number;
  /** Its monitoring range in °C. */
  rangeId: number;
  gatewayId: number;
  gatewaySn: string;
  secret: string;
  sensorId: number;
  devNo: string;
}

/** Calls the API and returns `result`, failing loudly on anything but 200000. */
export async function call(t: TestCtx, cookie: string, method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({ method: method as any, url, headers: { cookie }, payload: payload as any });
  const body = res.json();
  if (body.state?.code !== 200000) throw new Error(`${method} ${url} → ${res.statusCode} ${JSON.stringify(body)}`);
  return body.result;
}

/** Records named after `tag` (letters only), so a leak of them is visible in any answer. */
export async function seedRecords(t: TestCtx, account: string, tag: string, snHex: string): Promise<Records> {
  const cookie = await t.login(account);
  const customerId = (await call(t, cookie, 'GET', '/service/mine/info')).user.customerId;
  const scene = await call(t, cookie, 'POST', '/service/scene/add', { label: `${tag}Ward` });
  const contact = await call(t, cookie, 'POST', '/service/contact/add', { name: `${tag}Nurse`, phone: '13800000000', groupName: 'night' });
  const carrier = await call(t, cookie, 'POST', '/service/carrier/add', {
    name: `${tag}Fridge`, type: 2, sceneId: scene.id, tempMin: 2, tempMax: 8, humMin: 30, humMax: 70, contactIds: [contact.id],
  });
  const gatewaySn = snHex.padEnd(12, '0');
  const gw = await call(t, cookie, 'POST', '/service/gateway/add', { sn: gatewaySn, name: `${tag}Gateway`, carrierId: carrier.id });
  const devNo = `${tag}T1`;
  const sensor = await call(t, cookie, 'POST', '/service/sensor/add', { devNo, type: 'zigbee_th', gatewayId: gw.id, carrierId: carrier.id });
  const now = Date.now();
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum) SELECT $1, to_timestamp(($2::bigint - g * 60000) / 1000.0), $3, 5, 50 FROM generate_series(0, 9) g`,
    [sensor.id, now, customerId],
  );
  // Written beside the ingest writer, so marked for the rollup job as the writer marks its own:
  // otherwise the statistics read these buckets' (empty) rollups once the range holds them whole.
  await markForRollup(t.db, sensor.id, now - 10 * 60_000, now);
  await t.db.query(`UPDATE sensor SET last_ts = now(), last_temp = 5, last_hum = 50, status = 1 WHERE id = $1`, [sensor.id]);
  const sceneCode = (await call(t, cookie, 'GET', `/service/scene/detail?id=${scene.id}`)).code;
  const tempUnit = (await call(t, cookie, 'GET', '/service/share/unit')).find((u: { number: string }) => u.number === 'temp');
  const range = await call(t, cookie, 'POST', '/service/range/add', { unitId: tempUnit.id, min: -40, max: 85 });
  return {
    cookie, customerId, sceneId: scene.id, sceneCode, contactId: contact.id, carrierId: carrier.id, rangeId: range.id,
    gatewayId: gw.id, gatewaySn, secret: gw.secret, sensorId: sensor.id, devNo,
  };
}

/** Building the app and seeding two customers through the API can be slow on a busy two-core machine. */
export const SETUP_MS = 180_000;

export interface TwoCustomers {
  t: TestCtx;
  /** Customer A's records (admin `alpha`). */
  a: Records;
  /** Customer B's records (admin `beta`). */
  b: Records;
}

/**
 * Registers the suite's beforeAll/afterAll: the app on a fresh database with records seeded for
 * alpha and beta, handed to `ready` once built; closed after the suite.
 */
export function withTwoCustomers(ready: (c: TwoCustomers) => void): void {
  let t: TestCtx;
  beforeAll(async () => {
    t = await setup();
    const a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
    const b = await seedRecords(t, 'beta', 'Beta', 'B1');
    ready({ t, a, b });
  }, SETUP_MS);
  afterAll(() => t.close());
}

/** A caller of the API in English returning the HTTP status with the answer's body, whatever its code. */
export const requester = (ctx: () => TestCtx) => (cookie: string, method: string, url: string, payload?: unknown) =>
  ctx().app.inject({ method: method as any, url, headers: { cookie, 'accept-language': 'en-US' }, payload: payload as any }).then((r) => ({ status: r.statusCode, ...r.json() }));
