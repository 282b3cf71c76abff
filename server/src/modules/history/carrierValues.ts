import { carrierSeries, type SampleMode } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { sensorOfflineAfterS } from '../../alarm/offline.js';

// Hot path like carrierHistory.ts: the carrier and its sensors are found in the caller's scope
// first (by the caller), then every reading query is by those sensors' ids and the carrier's customer.

/** A carrier as its value is computed: its sample mode, customer and running sensors with their offline rule. */
export interface ValueCarrier {
  id: number;
  customerId: number;
  mode: SampleMode;
  sensors: { id: number; devNo: string; staleMs: number }[];
}

export interface ValuePoint {
  ts: number;
  temp: number | null;
  hum: number | null;
}

type Field = 'temp' | 'hum';
const FIELDS: Field[] = ['temp', 'hum'];

/** The running sensors of these carriers with their offline rule (a value older than that is stale, as on the board). */
export async function valueSensors(q: Queryable, carrierIds: readonly number[]): Promise<Map<number, ValueCarrier['sensors']>> {
  const rows = await q.query<{ id: number; carrier_id: number; dev_no: string; offline_after_s: number }>(
    `SELECT id, carrier_id, dev_no, ${sensorOfflineAfterS('sensor')} AS offline_after_s FROM sensor WHERE carrier_id = ANY($1::int[]) AND status <> 2 ORDER BY id`,
    [[...carrierIds]],
  );
  const out = new Map<number, ValueCarrier['sensors']>();
  for (const r of rows) out.set(r.carrier_id, [...(out.get(r.carrier_id) ?? []), { id: r.id, devNo: r.dev_no, staleMs: Number(r.offline_after_s) * 1000 }]);
  return out;
}

/**
 * The carrier's value over [start, end] by its sample mode (spec §3), as the board shows it and
 * the alarms judge it: a point whenever one of its running sensors reports temperature or
 * humidity, each measure the mode over every sensor's latest reading that is not stale then.
 * Each sensor's reading before `start` sets the state the span starts from. Unrounded.
 */
export async function carrierValues(q: Queryable, c: ValueCarrier, start: number, end: number): Promise<ValuePoint[]> {
  if (!c.sensors.length || start > end) return [];
  const ids = c.sensors.map((s) => s.id);
  const series = await Promise.all(
    FIELDS.map(async (f) => {
      // Column names come from the closed list above, never from input.
      const rows = await q.query<{ sensor_id: number; ts: number; v: number }>(
        `SELECT sensor_id, (extract(epoch from ts) * 1000)::bigint AS ts, ${f} AS v FROM reading
          WHERE sensor_id = ANY($1::int[]) AND ts >= $2 AND ts <= $3 AND customer_id = $4 AND ${f} IS NOT NULL ORDER BY ts`,
        [ids, new Date(start), new Date(end), c.customerId],
      );
      const before = await q.query<{ id: number; ts: number; v: number }>(
        `SELECT s.id, (extract(epoch from r.ts) * 1000)::bigint AS ts, r.v FROM unnest($1::int[]) AS s(id)
           CROSS JOIN LATERAL (SELECT ts, ${f} AS v FROM reading WHERE sensor_id = s.id AND ts < $2 AND customer_id = $3 AND ${f} IS NOT NULL ORDER BY ts DESC LIMIT 1) r`,
        [ids, new Date(start), c.customerId],
      );
      return carrierSeries(
        c.mode,
        c.sensors.map((s) => {
          const b = before.find((x) => x.id === s.id);
          return {
            staleMs: s.staleMs,
            samples: rows.filter((r) => r.sensor_id === s.id).map((r) => ({ ts: Number(r.ts), value: r.v })),
            before: b ? { ts: Number(b.ts), value: b.v } : null,
          };
        }),
        start,
      );
    }),
  );
  const merged = new Map<number, ValuePoint>();
  FIELDS.forEach((f, i) => {
    for (const p of series[i]) {
      const cur = merged.get(p.ts) ?? { ts: p.ts, temp: null, hum: null };
      cur[f] = p.value;
      merged.set(p.ts, cur);
    }
  });
  return [...merged.values()].sort((x, y) => x.ts - y.ts);
}
