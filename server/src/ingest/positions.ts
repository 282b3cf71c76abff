import type { Queryable } from '../platform/db/client.js';

/*
 * Positions of carriers in transport mode (docs/transport.md "Positions"), from a gateway's
 * heartbeat `gps` (device-protocol.md): the gateway's carrier, or for a 4G GPS sensor that is its
 * own gateway (its serial number is the sensor's number) the sensor's carrier. Kept only while
 * that carrier is in transport mode, in the trip under way then (if any). The heartbeat's parser
 * has already refused a position outside −90..90 / −180..180; the table's checks refuse it again.
 */

export interface StoredPosition {
  customerId: number;
  carrierId: number;
  tripId: number | null;
  ts: number;
  lat: number;
  lng: number;
}

/** Stores the position a gateway reported at `ts` (UTC ms); null when no carrier in transport mode takes it (or it was already stored). */
export async function storePosition(q: Queryable, gatewayId: number, ts: number, lat: number, lng: number): Promise<StoredPosition | null> {
  const [row] = await q.query<{ customer_id: number; carrier_id: number; trip_id: number | null }>(
    `WITH g AS (
       SELECT g.sn, g.customer_id,
              COALESCE(g.carrier_id, (SELECT s.carrier_id FROM sensor s WHERE s.dev_no = g.sn AND s.customer_id = g.customer_id)) AS carrier_id
         FROM gateway g WHERE g.id = $1)
     INSERT INTO trip_position (customer_id, carrier_id, trip_id, ts, lat, lng, source)
     SELECT c.customer_id, c.id,
            (SELECT t.id FROM trip t WHERE t.carrier_id = c.id AND t.end_ts IS NULL AND t.start_ts <= to_timestamp($2::bigint / 1000.0)),
            to_timestamp($2::bigint / 1000.0), $3, $4, g.sn
       FROM g JOIN carrier c ON c.id = g.carrier_id AND c.customer_id = g.customer_id
      WHERE c.mode = 'transport'
     ON CONFLICT (carrier_id, ts) DO NOTHING
     RETURNING customer_id, carrier_id, trip_id`,
    [gatewayId, ts, lat, lng],
  );
  return row ? { customerId: row.customer_id, carrierId: row.carrier_id, tripId: row.trip_id, ts, lat, lng } : null;
}

/** An exception the stay judgement opened or ended (for the bus after the commit). */
export interface StayChange {
  id: number;
  customer_id: number;
  carrier_id: number;
  gateway_id: number | null;
  ongoing: boolean;
}

/** Great-circle distance in metres between (lat1, lng1) and (lat2, lng2), in SQL (haversine, mean Earth radius). */
const DIST = (lat1: string, lng1: string, lat2: string, lng2: string) =>
  `(2 * 6371000 * asin(sqrt(power(sin(radians(${lat2} - ${lat1}) / 2), 2) + cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lng2} - ${lng1}) / 2), 2))))`;

/** The parameter `key` (its stored value, else its default). */
const PARAM = (key: string, dflt: number) => `COALESCE((SELECT value::float8 FROM setting WHERE key = '${key}'), ${dflt})`;
const RADIUS = PARAM('trip_stay_radius_m', 200);
const MINUTES = PARAM('trip_stay_minutes', 30);

/**
 * The "retention" exception (docs/alarms.md "Retention"): judged on the newest position of a
 * trip under way. While none is ongoing, the stay is the run of the trip's latest positions all
 * within the radius of this one; when it has lasted the set minutes, retention opens at the run's
 * first position (its anchor), with the minutes stayed so far (first_value), the radius (limit_min)
 * and the set minutes (limit_max). While one is ongoing, a position farther than the radius from the
 * anchor ends it at that position's time; so does the end of the trip (trip.repository.ts). Back-filled
 * positions older than the trip's newest are not judged.
 */
export async function judgeStay(q: Queryable, p: StoredPosition, gatewayId: number): Promise<StayChange[]> {
  if (p.tripId === null) return [];
  const args = [p.tripId, new Date(p.ts).toISOString(), p.lat, p.lng, p.carrierId, p.customerId, gatewayId];
  const [newest] = await q.query<{ newer: boolean }>(`SELECT EXISTS (SELECT 1 FROM trip_position WHERE trip_id = $1 AND ts > $2::timestamptz) AS newer`, [p.tripId, args[1]]);
  if (newest.newer) return [];
  // Moving on: the ongoing retention of the carrier ends when this position is out of its anchor's radius.
  const ended = await q.query<StayChange>(
    `UPDATE exception_record e SET ongoing = false, end_ts = $1::timestamptz, last_ts = $1::timestamptz,
            duration_s = round(extract(epoch FROM $1::timestamptz - e.start_ts))
       FROM trip_position a
      WHERE e.carrier_id = $4 AND e.category = 'retention' AND e.ongoing AND e.customer_id = $5
        AND a.carrier_id = e.carrier_id AND a.ts = e.start_ts
        AND ${DIST('a.lat', 'a.lng', '$2::float8', '$3::float8')} > ${RADIUS}
     RETURNING e.id, e.customer_id, e.carrier_id, e.gateway_id, e.ongoing`,
    args.slice(1, 6),
  );
  if (ended.length) return ended;
  // Staying: opens when the run within the radius of this position reaches the set minutes.
  return q.query<StayChange>(
    `WITH run AS (
       SELECT min(x.ts) AS since FROM trip_position x
        WHERE x.trip_id = $1 AND x.ts <= $2::timestamptz
          AND x.ts > COALESCE((SELECT max(y.ts) FROM trip_position y WHERE y.trip_id = $1 AND y.ts <= $2::timestamptz
                                 AND ${DIST('y.lat', 'y.lng', '$3::float8', '$4::float8')} > ${RADIUS}), '-infinity'))
     INSERT INTO exception_record (customer_id, carrier_id, gateway_id, type, category, start_ts, last_ts, first_value, limit_min, limit_max, ongoing)
     SELECT $6, $5, $7, 'transport', 'retention', run.since, $2::timestamptz, round(extract(epoch FROM $2::timestamptz - run.since) / 60), ${RADIUS}, ${MINUTES}, true FROM run
      WHERE run.since IS NOT NULL AND $2::timestamptz - run.since >= make_interval(mins => ${MINUTES}::int)
        AND NOT EXISTS (SELECT 1 FROM exception_record e WHERE e.carrier_id = $5 AND e.category = 'retention'
                         AND (e.ongoing OR e.start_ts = run.since))
     RETURNING id, customer_id, carrier_id, gateway_id, ongoing`,
    args,
  );
}


/** Ends the carrier's ongoing retention at `at` (a trip's end ends its stay: docs/alarms.md "Retention"). */
export async function endStay(q: Queryable, carrierId: number, at: Date): Promise<void> {
  await q.query(
    `UPDATE exception_record SET ongoing = false, end_ts = greatest(start_ts, $2::timestamptz),
            duration_s = round(extract(epoch FROM greatest(start_ts, $2::timestamptz) - start_ts))
      WHERE carrier_id = $1 AND category = 'retention' AND ongoing`,
    [carrierId, at],
  );
}

/**
 * Trips started and ended by places (docs/transport.md "Places"), judged on the carrier's newest
 * position before the stay (judgeStay). Without a trip under way, a carrier whose previous
 * position lay within one of its customer's places and this one outside it starts a trip from
 * that place at the previous position's time (the positions since join it). A trip under way
 * that reaches a place it has been outside of since its start ends there, at this position's
 * time (its destination, when none was given, is the place), and its stay ends with it.
 * Answers the position with the trip it now belongs to.
 */
export async function judgeTrip(q: Queryable, p: StoredPosition): Promise<StoredPosition> {
  const at = new Date(p.ts).toISOString();
  const [newest] = await q.query<{ newer: boolean }>(`SELECT EXISTS (SELECT 1 FROM trip_position WHERE carrier_id = $1 AND ts > $2::timestamptz) AS newer`, [p.carrierId, at]);
  if (newest.newer) return p;
  const here = (pl: string) => DIST(`${pl}.lat`, `${pl}.lng`, '$3::float8', '$4::float8');
  if (p.tripId === null) {
    const [started] = await q.query<{ id: number; start_ts: Date }>(
      `WITH prev AS (SELECT x.ts, x.lat, x.lng FROM trip_position x WHERE x.carrier_id = $1 AND x.ts < $2::timestamptz ORDER BY x.ts DESC LIMIT 1),
            left_place AS (
              SELECT pl.name, prev.ts FROM prev JOIN place pl ON pl.customer_id = $5
               WHERE ${DIST('prev.lat', 'prev.lng', 'pl.lat', 'pl.lng')} <= pl.radius_m AND ${here('pl')} > pl.radius_m
               ORDER BY ${DIST('prev.lat', 'prev.lng', 'pl.lat', 'pl.lng')} LIMIT 1)
       INSERT INTO trip (customer_id, carrier_id, origin, start_ts, started_by, auto)
       SELECT $5, $1, left(name, 100), ts, '', true FROM left_place
       ON CONFLICT DO NOTHING
       RETURNING id, start_ts`,
      [p.carrierId, at, p.lat, p.lng, p.customerId],
    );
    if (!started) return p;
    await q.query(`UPDATE trip_position SET trip_id = $2 WHERE carrier_id = $1 AND trip_id IS NULL AND ts >= $3`, [p.carrierId, started.id, started.start_ts]);
    return { ...p, tripId: started.id };
  }
  const [ended] = await q.query<{ id: number }>(
    `WITH reached AS (
       SELECT pl.name FROM place pl
        WHERE pl.customer_id = $5 AND ${here('pl')} <= pl.radius_m
          AND EXISTS (SELECT 1 FROM trip_position x WHERE x.trip_id = $1 AND x.ts < $2::timestamptz
                         AND ${DIST('x.lat', 'x.lng', 'pl.lat', 'pl.lng')} > pl.radius_m)
        ORDER BY ${here('pl')} LIMIT 1)
     UPDATE trip t SET end_ts = $2::timestamptz, ended_by = '',
            destination = CASE WHEN t.destination = '' THEN left(reached.name, 100) ELSE t.destination END
       FROM reached WHERE t.id = $1 AND t.end_ts IS NULL AND t.start_ts <= $2::timestamptz
     RETURNING t.id`,
    [p.tripId, at, p.lat, p.lng, p.customerId],
  );
  if (!ended) return p;
  await endStay(q, p.carrierId, new Date(p.ts));
  return p;
}
