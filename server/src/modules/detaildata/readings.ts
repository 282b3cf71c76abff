import type { Queryable } from '../../platform/db/client.js';

/*
 * The readings behind a detail-data page: hot-path SQL on `reading` (docs/data-layer.md), by
 * the ids of sensors already found in the caller's scope and each one's customer (a lent sensor
 * has readings of two customers; each sees its own).
 *
 * A page is an index-backed offset: each sensor's readings come from its (sensor_id, ts) key in
 * time order, at most offset + length of them, merged; so a page costs the readings before it,
 * never a sort of the whole span. A page past the middle is read from the other end (the total
 * is known first), so the deepest page of a year costs half the year's keys at most
 * (docs/performance.md "Detail data").
 */

/** One sensor whose readings feed the page, the customer its readings belong to, and the row key they count under. */
export interface Feed {
  sensorId: number;
  customerId: number;
  /** Rows are (key, ts): a carrier's id (its sensors' readings at one time make one row) or the sensor's own id. */
  key: number;
}

export interface Window {
  start: number;
  end: number;
  offset: number;
  length: number;
}

/** A reading counts when it holds a temperature or a humidity (a battery-only report is no data point). */
const HAS_VALUE = '(temp IS NOT NULL OR hum IS NOT NULL)';

const arrays = (feeds: readonly Feed[]) => [feeds.map((f) => f.sensorId), feeds.map((f) => f.customerId), feeds.map((f) => f.key)];

/**
 * How many rows the span holds: distinct (key, ts) pairs. A key fed by one sensor counts its
 * readings straight from the index; a key fed by several (a carrier with probes) counts its
 * distinct times.
 */
export async function countRows(q: Queryable, feeds: readonly Feed[], start: number, end: number): Promise<number> {
  if (!feeds.length) return 0;
  const perKey = new Map<number, number>();
  for (const f of feeds) perKey.set(f.key, (perKey.get(f.key) ?? 0) + 1);
  const single = feeds.filter((f) => perKey.get(f.key) === 1);
  const shared = feeds.filter((f) => perKey.get(f.key)! > 1);
  let total = 0;
  if (single.length) {
    const [{ n }] = await q.query<{ n: number }>(
      `SELECT coalesce(sum(c.n), 0)::int AS n FROM unnest($1::int[], $2::int[]) AS m(sid, cust)
         CROSS JOIN LATERAL (SELECT count(*) AS n FROM reading WHERE sensor_id = m.sid AND customer_id = m.cust AND ts >= $3 AND ts <= $4 AND ${HAS_VALUE}) c`,
      [...arrays(single).slice(0, 2), new Date(start), new Date(end)],
    );
    total += Number(n);
  }
  if (shared.length) {
    const [{ n }] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT DISTINCT m.k, r.ts FROM unnest($1::int[], $2::int[], $3::int[]) AS m(sid, cust, k)
         JOIN reading r ON r.sensor_id = m.sid AND r.customer_id = m.cust WHERE r.ts >= $4 AND r.ts <= $5 AND (r.temp IS NOT NULL OR r.hum IS NOT NULL)) x`,
      [...arrays(shared), new Date(start), new Date(end)],
    );
    total += Number(n);
  }
  return total;
}

/** A page's keys: the (key, ts) pairs of rows offset … offset + length, newest first (ties by key). */
export async function pageKeys(q: Queryable, feeds: readonly Feed[], w: Window, total: number): Promise<{ key: number; ts: number }[]> {
  if (!feeds.length || w.offset >= total) return [];
  // Past the middle, from the oldest end: the same rows, reached through fewer keys.
  const fromEnd = w.offset > total / 2;
  const length = Math.min(w.length, total - w.offset);
  const offset = fromEnd ? total - w.offset - length : w.offset;
  const dir = fromEnd ? 'ASC' : 'DESC';
  const rows = await q.query<{ key: number; ts: number }>(
    `SELECT DISTINCT m.k AS key, (extract(epoch from r.ts) * 1000)::bigint AS ts, r.ts AS t FROM unnest($1::int[], $2::int[], $3::int[]) AS m(sid, cust, k)
       CROSS JOIN LATERAL (SELECT ts FROM reading WHERE sensor_id = m.sid AND customer_id = m.cust AND ts >= $4 AND ts <= $5 AND ${HAS_VALUE}
                            ORDER BY ts ${dir} LIMIT $6) r
      ORDER BY t ${dir}, key ${dir} LIMIT $7 OFFSET $8`,
    [...arrays(feeds), new Date(w.start), new Date(w.end), offset + length, length, offset],
  );
  const keys = rows.map((r) => ({ key: Number(r.key), ts: Number(r.ts) }));
  return fromEnd ? keys.reverse() : keys;
}

/** The readings of these sensors at exactly these times (a sensor page's values), keyed `sensorId:ts`. */
export async function readingsAt(q: Queryable, feeds: readonly Feed[], at: readonly { key: number; ts: number }[]): Promise<Map<string, { temp: number | null; hum: number | null }>> {
  const out = new Map<string, { temp: number | null; hum: number | null }>();
  if (!at.length) return out;
  const cust = new Map(feeds.map((f) => [f.sensorId, f.customerId]));
  const rows = await q.query<{ sensor_id: number; ts: number; temp: number | null; hum: number | null }>(
    `SELECT r.sensor_id, (extract(epoch from r.ts) * 1000)::bigint AS ts, r.temp, r.hum FROM unnest($1::int[], $2::int[], $3::timestamptz[]) AS m(sid, cust, ts)
       JOIN reading r ON r.sensor_id = m.sid AND r.customer_id = m.cust AND r.ts = m.ts`,
    [at.map((a) => a.key), at.map((a) => cust.get(a.key) ?? 0), at.map((a) => new Date(a.ts))],
  );
  for (const r of rows) out.set(`${r.sensor_id}:${Number(r.ts)}`, { temp: r.temp, hum: r.hum });
  return out;
}
