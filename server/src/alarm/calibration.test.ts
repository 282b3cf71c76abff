import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../test/db.js';
import type { Db } from '../platform/db/client.js';
import { site } from './testkit.js';
import { sendCalibrationNotices } from './calibration.js';

let db: Db;
let drop: () => Promise<void>;
let customerId: number;
const NOW = Date.UTC(2026, 5, 1, 8, 0, 0);

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  customerId = (await db.one<{ id: number }>(`INSERT INTO customer (name, code, notify_sms) VALUES ('Delta Store', 'DELTA', true) RETURNING id`))!.id;
}, 120_000);
afterAll(async () => drop?.());

const notices = (sensorDev: string) =>
  db.query<{ channel: string; recipient: string; subject: string; content: string; type: string }>(
    `SELECT channel, recipient, subject, content, type FROM notice_log WHERE type = 'calibration' AND content LIKE $1 ORDER BY channel, recipient`,
    [`%${sensorDev}%`],
  );

describe('calibration expiry notices', () => {
  it('tells each sensor\'s carrier contacts once, at the notice date, by mail and SMS in each contact\'s language', async () => {
    const s = await site(db, customerId, { name: 'Vaccine Fridge', emails: ['pharma@delta.test'] });
    // A second contact who reads English and has a phone; the customer's own language is Chinese (no users).
    const [ct] = await db.query<{ id: number }>(`INSERT INTO contact (customer_id, name, email, phone, locale) VALUES ($1, 'Ann', 'ann@delta.test', '+8613900000001', 'en-US') RETURNING id`, [customerId]);
    await db.query(`INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [s.carrierId, ct.id, customerId]);
    await db.query(`UPDATE sensor SET calib_expiry = '2026-06-30', calib_notice = $2 WHERE id = $1`, [s.sensorId, new Date(NOW + 3600_000)]);

    // Before its notice date: nothing.
    expect(await sendCalibrationNotices(db, NOW)).toEqual({ sensors: 0, notices: 0, unreached: 0 });
    expect(await notices(s.devNo)).toHaveLength(0);

    // At it: three notices (two mails, one SMS: the first contact has no phone).
    expect(await sendCalibrationNotices(db, NOW + 3600_000)).toMatchObject({ sensors: 1, notices: 3 });
    const sent = await notices(s.devNo);
    expect(sent.map((n) => [n.channel, n.recipient])).toEqual([['email', 'ann@delta.test'], ['email', 'pharma@delta.test'], ['sms', '+8613900000001']]);
    expect(sent[0].subject).toBe(`[Coldwatch] Sensor ${s.devNo}: calibration expires 2026-06-30`);
    expect(sent[1].subject).toBe(`【冷链监测】传感器${s.devNo}：校准将于2026-06-30到期`);
    expect(sent[2].content).toBe(`Coldwatch: sensor ${s.devNo} (Vaccine Fridge) calibration expires 2026-06-30`);

    // Once: a later run writes nothing more.
    expect(await sendCalibrationNotices(db, NOW + 7200_000)).toMatchObject({ sensors: 0, notices: 0 });
    expect(await notices(s.devNo)).toHaveLength(3);

    // A new notice date (after the next calibration) is told again when it comes.
    await db.query(`UPDATE sensor SET calib_expiry = '2027-06-30', calib_notice = $2 WHERE id = $1`, [s.sensorId, new Date(NOW + 86400_000)]);
    expect(await sendCalibrationNotices(db, NOW + 86400_000)).toMatchObject({ sensors: 1, notices: 3 });
  });

  it('counts a sensor nobody can be told about, and marks it so it is not tried again and again', async () => {
    const s = await site(db, customerId, { name: 'Lonely Fridge', emails: [] });
    await db.query(`UPDATE sensor SET calib_expiry = '2026-07-01', calib_notice = $2 WHERE id = $1`, [s.sensorId, new Date(NOW)]);
    expect(await sendCalibrationNotices(db, NOW + 10 * 86400_000)).toEqual({ sensors: 1, notices: 0, unreached: 1 });
    expect(await sendCalibrationNotices(db, NOW + 10 * 86400_000)).toEqual({ sensors: 0, notices: 0, unreached: 0 });
  });

  it('leaves out SMS when the customer\'s SMS switch is off', async () => {
    await db.query(`UPDATE customer SET notify_sms = false WHERE id = $1`, [customerId]);
    const s = await site(db, customerId, { name: 'Mail Only', emails: [] });
    const [ct] = await db.query<{ id: number }>(`INSERT INTO contact (customer_id, name, email, phone) VALUES ($1, 'Bo', 'bo@delta.test', '+8613900000002') RETURNING id`, [customerId]);
    await db.query(`INSERT INTO carrier_contact (carrier_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [s.carrierId, ct.id, customerId]);
    await db.query(`UPDATE sensor SET calib_expiry = '2026-07-02', calib_notice = $2 WHERE id = $1`, [s.sensorId, new Date(NOW)]);
    await sendCalibrationNotices(db, NOW + 20 * 86400_000);
    expect((await notices(s.devNo)).map((n) => n.channel)).toEqual(['email']);
  });
});
