import type { Queryable } from '../platform/db/client.js';
import type { DeviceExRow } from './devices.js';
import { resolveRecipients, writeResolution } from './recipients.js';
import { DEFAULT_LOCALE } from '@coldwatch/contract';
import { customerLocales, renderDeviceAlarm, type DeviceMailFacts } from './templates.js';
import { recipientLocale, renderDeviceSms } from './texts.js';

/**
 * The outbox of connection, power, battery and retention exceptions: their notices in the customer's
 * language, written in the transaction that opened the exception (as writeNotices in
 * exceptions.ts does for the data exceptions), so an exception never exists without its notices
 * and never gets them twice.
 *
 * Who is told: the recipients (recipients.ts: the point's trigger, else its contacts by e-mail)
 * of the monitoring point the device serves; for a gateway, of every point it serves (its own and
 * those of the sensors reporting through it), since its silence or power failure leaves all of
 * them unwatched. Points with their alarm switched off are left out (the switch means "do not
 * alarm me about this point"). A handful of statements for any number of exceptions and
 * customers (a scan may open thousands at once).
 */

interface Facts {
  id: number;
  customer_id: number;
  category: DeviceMailFacts['category'];
  start: number;
  last: number | null;
  end: number | null;
  first_value: number | null;
  limit_min: number | null;
  limit_max: number | null;
  customer_name: string;
  time_zone: string;
  kind: DeviceMailFacts['kind'];
  device: string;
  carriers: string | null;
  carrier_ids: number[] | null;
}

const ms = (col: string) => `(extract(epoch FROM ${col}) * 1000)::float8`;

export async function writeDeviceNotices(q: Queryable, opened: Pick<DeviceExRow, 'id'>[]): Promise<number> {
  if (!opened.length) return 0;
  const ids = opened.map((o) => Number(o.id)).sort((a, b) => a - b);
  const rows = await q.query<Facts>(
    `WITH ex AS (
       SELECT e.*,
              CASE WHEN e.category IN ('gateway_connect', 'gateway_blackout')
                   THEN ARRAY(SELECT g.carrier_id FROM gateway g WHERE g.id = e.gateway_id AND g.carrier_id IS NOT NULL
                              UNION SELECT s.carrier_id FROM sensor s WHERE s.gateway_id = e.gateway_id AND s.carrier_id IS NOT NULL)
                   ELSE ARRAY[e.carrier_id] END AS carrier_ids
         FROM exception_record e WHERE e.id = ANY($1::bigint[])
     ), points AS (
       SELECT ex.id, ex.customer_id, k.id AS carrier_id, k.name FROM ex CROSS JOIN LATERAL unnest(ex.carrier_ids) AS c(id)
         JOIN carrier k ON k.id = c.id AND k.customer_id = ex.customer_id AND k.alarm_on
     ), names AS (
       SELECT id, string_agg(name, ', ' ORDER BY name) AS carriers, array_agg(carrier_id) AS carrier_ids FROM points GROUP BY id
     )
     SELECT ex.id, ex.customer_id, ex.category, ${ms('ex.start_ts')} AS start, ${ms('ex.last_ts')} AS last,
            CASE WHEN ex.ongoing THEN NULL ELSE ${ms('ex.end_ts')} END AS "end", ex.first_value, ex.limit_min, ex.limit_max,
            cu.name AS customer_name, cu.time_zone,
            CASE WHEN ex.sensor_id IS NOT NULL THEN 'sensor' WHEN ex.display_id IS NOT NULL THEN 'display'
                 WHEN ex.relay_id IS NOT NULL THEN 'relay' ELSE 'gateway' END AS kind,
            coalesce(s.dev_no, d.dev_no || ' ' || d.name, r.dev_no || ' ' || r.name, g.sn || ' ' || g.name, '') AS device,
            n.carriers, n.carrier_ids
       FROM ex JOIN customer cu ON cu.id = ex.customer_id
       LEFT JOIN names n ON n.id = ex.id
       LEFT JOIN sensor s ON s.id = ex.sensor_id
       LEFT JOIN display d ON d.id = ex.display_id
       LEFT JOIN relay r ON r.id = ex.relay_id
       LEFT JOIN gateway g ON g.id = ex.gateway_id
      ORDER BY ex.id`,
    [ids],
  );
  const resolution = await resolveRecipients(
    q,
    rows.map((r) => ({ exceptionId: Number(r.id), customerId: r.customer_id, category: r.category, carrierIds: r.carrier_ids ?? [] })),
  );
  const told = new Set([...resolution.targets, ...resolution.skipped].map((t) => t.exceptionId));
  const locales = await customerLocales(q, [...new Set(rows.filter((r) => told.has(Number(r.id))).map((r) => r.customer_id))]);
  const facts = new Map<number, { facts: DeviceMailFacts; customerId: number }>();
  for (const r of rows)
    facts.set(Number(r.id), {
      customerId: r.customer_id,
      facts: {
        customer: r.customer_name, carriers: r.carriers ?? '', kind: r.kind, device: r.device.trim(), category: r.category,
        start: Number(r.start), last: r.last === null ? null : Number(r.last), end: r.end === null ? null : Number(r.end),
        volt: r.first_value, threshold: r.limit_min, tz: r.time_zone,
        // A retention's limits are its radius (m) and its minutes (positions.ts judgeStay).
        stay: r.category === 'retention' ? { radiusM: Number(r.limit_min), minutes: Number(r.limit_max) } : undefined,
      },
    });
  return writeResolution(q, resolution, (t) => {
    const { facts: f, customerId } = facts.get(t.exceptionId)!;
    const lang = recipientLocale(t.locale, locales.get(customerId) ?? DEFAULT_LOCALE);
    return t.channel === 'email' ? renderDeviceAlarm(f, lang) : { subject: '', content: renderDeviceSms(f, lang) };
  });
}
