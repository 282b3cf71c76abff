import { randomBytes } from 'node:crypto';
import type { Db } from '../platform/db/client.js';
import { EXCEPTION_CATEGORIES } from '@coldwatch/contract';

/**
 * Fixtures of the alarm tests, written with SQL the way the record modules and the ingest
 * writer leave the database: a scene, a carrier with a zone, a gateway, a sensor, contacts;
 * readings inserted together with the alarm_queue upsert in one transaction.
 */

export interface Site {
  customerId: number;
  sceneId: number;
  carrierId: number;
  carrierName: string;
  gatewayId: number;
  sensorId: number;
  devNo: string;
}

export async function site(
  db: Db,
  customerId: number,
  opts: {
    name: string;
    alarmOn?: boolean;
    temp?: [number, number] | null;
    hum?: [number, number] | null;
    emails?: string[];
    /** Alarm delay (s) and hysteresis margins; left out, the carrier has the defaults of migration 0034. */
    delayS?: number;
    tempMargin?: number;
    humMargin?: number;
  },
): Promise<Site> {
  const tag = randomBytes(4).toString('hex').toUpperCase();
  const temp = opts.temp === undefined ? [2, 8] : opts.temp;
  const hum = opts.hum ?? null;
  const [scene] = await db.query<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, $2, $3) RETURNING id`, [customerId, `s${tag}`, `Scene ${tag}`]);
  const [carrier] = await db.query<{ id: number }>(
    `INSERT INTO carrier (customer_id, scene_id, name, type, alarm_on, temp_min, temp_max, hum_min, hum_max)
     VALUES ($1, $2, $3, 2, $4, $5, $6, $7, $8) RETURNING id`,
    [customerId, scene.id, opts.name, opts.alarmOn ?? true, temp?.[0] ?? null, temp?.[1] ?? null, hum?.[0] ?? null, hum?.[1] ?? null],
  );
  // Delay and margins are the bound trigger's (migration 0041): a site given any gets a trigger of its own, by e-mail as before.
  if (opts.delayS !== undefined || opts.tempMargin !== undefined || opts.humMargin !== undefined) {
    const [trigger] = await db.query<{ id: number }>(
      `INSERT INTO alarm_trigger (customer_id, name, categories, channels, delay_s, temp_margin, hum_margin)
       VALUES ($1, $2, $3, '{email}', coalesce($4, 0), coalesce($5, 0.3), coalesce($6, 2)) RETURNING id`,
      [customerId, `Trigger ${tag}`, [...EXCEPTION_CATEGORIES], opts.delayS ?? null, opts.tempMargin ?? null, opts.humMargin ?? null],
    );
    await db.query(`UPDATE carrier SET trigger_id = $2 WHERE id = $1`, [carrier.id, trigger.id]);
  }
  const [gw] = await db.query<{ id: number }>(
    `INSERT INTO gateway (customer_id, sn, name, secret_hash, carrier_id) VALUES ($1, $2, $3, 'x', $4) RETURNING id`,
    [customerId, `A4C1${tag}`, `GW ${tag}`, carrier.id],
  );
  const devNo = `T${tag}`;
  const [sensor] = await db.query<{ id: number }>(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status) VALUES ($1, $2, 'zigbee_th', $3, $4, 1) RETURNING id`,
    [customerId, devNo, gw.id, carrier.id],
  );
  let i = 0;
  for (const email of opts.emails ?? []) {
    const [k] = await db.query<{ id: number }>(`INSERT INTO contact (customer_id, name, email) VALUES ($1, $2, $3) RETURNING id`, [customerId, `Contact ${tag} ${i++}`, email]);
    await db.query(`INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [carrier.id, k.id, customerId]);
  }
  return { customerId, sceneId: scene.id, carrierId: carrier.id, carrierName: opts.name, gatewayId: gw.id, sensorId: sensor.id, devNo };
}

/** Another sensor on the site's carrier and gateway (a carrier of several probes). */
export async function addSensor(db: Db, s: Site): Promise<Site> {
  const devNo = `T${randomBytes(4).toString('hex').toUpperCase()}`;
  const [sensor] = await db.query<{ id: number }>(
    `INSERT INTO sensor (customer_id, dev_no, type, gateway_id, carrier_id, status) VALUES ($1, $2, 'zigbee_th', $3, $4, 1) RETURNING id`,
    [s.customerId, devNo, s.gatewayId, s.carrierId],
  );
  return { ...s, sensorId: sensor.id, devNo };
}

/** One reading: [ts ms, temp, hum?]. */
export type R = [number, number | null, (number | null)?];

/** Inserts readings and widens the sensor's alarm_queue row in the same transaction, like ingest/writer.ts. */
export async function ingest(db: Db, s: Site, readings: R[]) {
  if (!readings.length) return;
  const ts = readings.map((r) => r[0]);
  await db.tx(async (q) => {
    await q.query(
      `INSERT INTO reading (sensor_id, ts, customer_id, temp, hum)
       SELECT $1, t, $2, v, h FROM unnest($3::timestamptz[], $4::real[], $5::real[]) AS x(t, v, h)
       ON CONFLICT DO NOTHING`,
      [s.sensorId, s.customerId, ts.map((t) => new Date(t).toISOString()), readings.map((r) => r[1]), readings.map((r) => r[2] ?? null)],
    );
    await q.query(
      `INSERT INTO alarm_queue (sensor_id, customer_id, min_ts, max_ts) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sensor_id) DO UPDATE SET min_ts = LEAST(alarm_queue.min_ts, EXCLUDED.min_ts),
         max_ts = GREATEST(alarm_queue.max_ts, EXCLUDED.max_ts), version = alarm_queue.version + 1`,
      [s.sensorId, s.customerId, new Date(Math.min(...ts)), new Date(Math.max(...ts))],
    );
  });
}

export interface ExOut {
  id: number;
  category: string;
  status: number;
  ongoing: boolean;
  start: number;
  end: number | null;
  last: number | null;
  duration: number | null;
  first: number;
  peak: number;
  limitMin: number;
  limitMax: number;
}

/** A sensor's data exceptions, or with `{ carrier }` the carrier value's own (sensor_id NULL). */
export async function exceptionsOf(db: Db, sensorId: number | { carrier: number }, category?: string): Promise<ExOut[]> {
  const rows = await db.query(
    `SELECT id, category, status, ongoing, start_ts, end_ts, last_ts, duration_s, first_value, peak_value, limit_min, limit_max
       FROM exception_record
      WHERE ${typeof sensorId === 'number' ? 'sensor_id = $1' : "carrier_id = $1 AND sensor_id IS NULL AND type = 'data'"}
        AND ($2::text IS NULL OR category = $2) ORDER BY start_ts, id`,
    [typeof sensorId === 'number' ? sensorId : sensorId.carrier, category ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    category: r.category,
    status: r.status,
    ongoing: r.ongoing,
    start: new Date(r.start_ts).getTime(),
    end: r.end_ts ? new Date(r.end_ts).getTime() : null,
    last: r.last_ts ? new Date(r.last_ts).getTime() : null,
    duration: r.duration_s,
    first: r.first_value,
    peak: r.peak_value,
    limitMin: r.limit_min,
    limitMax: r.limit_max,
  }));
}
