import type { Db } from '../platform/db/client.js';
import { customerLocales } from './templates.js';
import { recipientLocale, renderCalibration } from './texts.js';

/**
 * The job `calibration-notice` (issue 28): each sensor whose calibration notice date
 * (sensor.calib_notice, spec §3) has come is told once to its carrier's contacts, by e-mail
 * (customer's e-mail switch on, contact with an address) and by SMS (SMS switch on, contact with
 * a phone), each in the contact's language, else the customer's. `calib_noticed_for` keeps the
 * date whose notices were written, in the same transaction, so a rerun or a second replica
 * writes nothing twice and a new notice date (after the next calibration) is told again.
 * A sensor without a carrier or contacts is marked too, and counted as `unreached`, which
 * /sys/scheduled shows: nobody to tell is a fact the operator should see, not a reason to loop.
 * The triggers may later choose other recipients; until then the carrier's contacts are the people responsible.
 */

interface Due {
  id: number;
  customer_id: number;
  dev_no: string;
  calib_expiry: string | null;
  customer_name: string;
  carrier_name: string | null;
  notify_email: boolean;
  notify_sms: boolean;
  contacts: { email: string; phone: string; locale: string | null }[] | null;
}

export async function sendCalibrationNotices(db: Db, now: number): Promise<{ sensors: number; notices: number; unreached: number }> {
  return db.tx(async (q) => {
    const due = await q.query<Due>(
      `SELECT s.id, s.customer_id, s.dev_no, to_char(s.calib_expiry, 'YYYY-MM-DD') AS calib_expiry, cu.name AS customer_name, k.name AS carrier_name,
              cu.notify_email, cu.notify_sms,
              (SELECT json_agg(json_build_object('email', ct.email, 'phone', ct.phone, 'locale', ct.locale) ORDER BY ct.id)
                 FROM carrier_contact cc JOIN contact ct ON ct.id = cc.contact_id AND ct.customer_id = s.customer_id
                WHERE cc.carrier_id = s.carrier_id) AS contacts
         FROM sensor s JOIN customer cu ON cu.id = s.customer_id AND cu.status = 1
         LEFT JOIN carrier k ON k.id = s.carrier_id AND k.customer_id = s.customer_id
        WHERE s.calib_notice <= $1 AND s.calib_noticed_for IS DISTINCT FROM s.calib_notice
        ORDER BY s.id LIMIT 500
        FOR UPDATE OF s SKIP LOCKED`,
      [new Date(now)],
    );
    if (!due.length) return { sensors: 0, notices: 0, unreached: 0 };
    const locales = await customerLocales(q, [...new Set(due.map((d) => d.customer_id))]);
    const rows = { customer: [] as number[], channel: [] as string[], recipient: [] as string[], subject: [] as string[], content: [] as string[] };
    let unreached = 0;
    for (const d of due) {
      const before = rows.recipient.length;
      for (const ct of d.contacts ?? []) {
        const text = renderCalibration(
          { customer: d.customer_name, carrier: d.carrier_name, devNo: d.dev_no, expiry: d.calib_expiry ?? '' },
          recipientLocale(ct.locale, locales.get(d.customer_id)!),
        );
        const push = (channel: string, to: string, subject: string, content: string) => {
          rows.customer.push(d.customer_id);
          rows.channel.push(channel);
          rows.recipient.push(to);
          rows.subject.push(subject);
          rows.content.push(content);
        };
        if (d.notify_email && ct.email) push('email', ct.email, text.subject, text.content);
        if (d.notify_sms && ct.phone) push('sms', ct.phone, '', text.sms);
      }
      if (rows.recipient.length === before) unreached++;
    }
    if (rows.recipient.length) {
      await q.query(
        `INSERT INTO notice_log (customer_id, type, channel, recipient, subject, content)
         SELECT c, 'calibration', ch, r, s, b FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(c, ch, r, s, b)`,
        [rows.customer, rows.channel, rows.recipient, rows.subject, rows.content],
      );
    }
    await q.query(`UPDATE sensor SET calib_noticed_for = calib_notice WHERE id = ANY($1::int[])`, [due.map((d) => d.id)]);
    return { sensors: due.length, notices: rows.recipient.length, unreached };
  });
}
