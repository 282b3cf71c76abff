/**
 * The storm's fleet, made by SQL in a few statements (not through the API): one customer with
 * `gateways` gateways of `perGateway` sensors, each sensor on a monitoring point of its own with
 * the 2–8 °C zone, the alarm on and one contact with an e-mail address. Every device was last
 * heard of `silentMs` ago: the network went down then, and the gateways buffered since.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../server/src/platform/db/client.js';
import { generateGatewaySecret, hashGatewaySecret } from '../../server/src/ingest/index.js';
import { createCustomerWithAdmin } from '../../server/src/platform/seed/root.js';

export interface StormGateway {
  sn: string;
  secret: string;
  devs: string[];
}

export interface Fleet {
  customerId: number;
  userId: number;
  gateways: StormGateway[];
  sensors: number;
}

export async function makeFleet(db: Db, opts: { gateways: number; perGateway: number; silentMs: number }): Promise<Fleet> {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const { customerId, userId } = await createCustomerWithAdmin(db, { name: `Storm ${tag}`, code: `ST${tag}`, account: `storm${tag.toLowerCase()}`, password: 'storm-bench' });
  const since = new Date(Date.now() - opts.silentMs);
  const n = opts.gateways * opts.perGateway;
  const [scene] = await db.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, 'Network') RETURNING id`, [customerId, `ST${tag}`]);
  const [contact] = await db.query<{ id: number }>(`INSERT INTO contact (customer_id, name, email, locale) VALUES ($1, 'Duty nurse', $2, 'en-US') RETURNING id`, [customerId, `storm-${tag.toLowerCase()}@bench.test`]);
  const sns = Array.from({ length: opts.gateways }, (_, g) => `${tag}${String(g).padStart(6, '0')}`);
  const secrets = sns.map(() => generateGatewaySecret());
  await db.query(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, status, last_seen_at)
     SELECT $1, sn, sn, h, 1, $4 FROM unnest($2::text[], $3::text[]) AS v(sn, h)`,
    [customerId, sns, secrets.map(hashGatewaySecret), since],
  );
  await db.query(
    `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on, temp_min, temp_max)
     SELECT $1, $2, 'Fridge ' || g, 2, true, 2, 8 FROM generate_series(0, $3::int - 1) g`,
    [customerId, scene.id, n],
  );
  await db.query(`INSERT INTO carrier_contact (customer_id, carrier_id, contact_id) SELECT $1, id, $2 FROM carrier WHERE customer_id = $1`, [customerId, contact.id]);
  // Sensor k sits on carrier k and on gateway k / perGateway, both in id order.
  await db.query(
    `WITH gw AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM gateway WHERE customer_id = $1),
          ca AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM carrier WHERE customer_id = $1)
     INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status, last_ts, last_temp, sample_interval)
     SELECT $1, $2 || lpad(ca.k::text, 7, '0'), 'zigbee_th', gw.id, ca.id, 1, $4, 5, 60 FROM ca JOIN gw ON gw.k = ca.k / $3::int`,
    [customerId, `S${tag}`, opts.perGateway, since],
  );
  await db.exec('ANALYZE gateway; ANALYZE carrier; ANALYZE sensor');
  const gateways = sns.map((sn, g) => ({
    sn,
    secret: secrets[g],
    devs: Array.from({ length: opts.perGateway }, (_, j) => `S${tag}${String(g * opts.perGateway + j).padStart(7, '0')}`),
  }));
  return { customerId, userId, gateways, sensors: n };
}
