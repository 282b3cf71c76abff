import { describe, expect, it } from 'vitest';
import { QUERY_CODE_STATUS } from '@coldwatch/contract';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { signCode } from './querycode.link.js';

/** Query codes (docs/workorders.md "Query codes"): a code shows its sensors' readings over its period and nothing else, until it expires or is revoked. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const open = (code: string, lang = 'en-US') =>
  t.app.inject({ method: 'GET', url: `/service/find/sensor/page?code=${encodeURIComponent(code)}`, headers: { 'accept-language': lang } }).then((r) => ({ status: r.statusCode, ...r.json() }));

describe('query codes', () => {
  it("open without sign-in on the code's sensors and period only", async () => {
    const now = Date.now();
    // A's sensor has readings every minute for the last 10 minutes (the fixture): the period takes the last 5.
    const made = await call(t, a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [a.sensorId], startTime: now - 5 * 60_000 - 30_000, endTime: now, note: 'For the inspector' });
    expect(made.url).toContain(`/queryCode?code=${encodeURIComponent(made.code)}`);
    expect(made.expiresAt).toBeGreaterThan(now + 7 * 86_400_000 - 60_000);
    const found = await open(made.code);
    expect(found.state.code).toBe(200000);
    expect(found.result).toMatchObject({ total: 1, customerName: 'Alpha Hospital', startTime: now - 5 * 60_000 - 30_000, endTime: now });
    expect(found.result.rows[0]).toMatchObject({ deviceNo: a.devNo, carrierName: 'AlphaFridge' });
    expect(found.result.rows[0].points).toHaveLength(6);
    // Nothing of customer B, nor ids another call could take.
    expect(JSON.stringify(found)).not.toMatch(/Beta|"sensorId"|"carrierId"/);
  });

  it('lists the codes with their expiry and state, and revokes them: a revoked code answers 401 in the reader\'s language', async () => {
    const made = await call(t, a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [a.sensorId] });
    const row = (await call(t, a.cookie, 'GET', '/service/find/code/page?iDisplayLength=100')).rows.find((r: { id: number }) => r.id === made.id);
    expect(row).toMatchObject({ status: QUERY_CODE_STATUS.active, code: made.code, expiresAt: made.expiresAt, sensors: [{ devNo: a.devNo, carrierName: 'AlphaFridge' }] });
    expect(row.endTime).toBe(made.expiresAt);
    // B neither sees nor revokes A's code.
    expect((await call(t, b.cookie, 'GET', '/service/find/code/page?iDisplayLength=100')).rows).toEqual([]);
    expect((await req(b.cookie, 'PUT', `/service/find/code/revoke?ids=${made.id}`)).status).toBe(404);
    expect((await open(made.code)).state.code).toBe(200000);
    expect(await call(t, a.cookie, 'PUT', `/service/find/code/revoke?ids=${made.id}`)).toEqual({ revoked: 1 });
    const revoked = await open(made.code);
    expect(revoked.status).toBe(401);
    expect(revoked.state.msg).toBe('This query code has been revoked by its owner; ask for a new one');
    expect((await open(made.code, 'zh-CN')).state.msg).toBe('查询码已被所有者撤销，请索取新的查询码');
    const listed = (await call(t, a.cookie, 'GET', `/service/find/code/page?iDisplayLength=100&status=${QUERY_CODE_STATUS.revoked}`)).rows;
    expect(listed.map((r: { id: number; code: string | null }) => [r.id, r.code])).toEqual([[made.id, null]]);
  });

  it('answers an altered or expired code with 401 and its reason, and nothing else', async () => {
    const made = await call(t, a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [a.sensorId] });
    const [id, customer, exp, mac] = made.code.split('.');
    for (const altered of [`${id}.${b.customerId}.${exp}.${mac}`, `${id}.${customer}.${Number(exp) + 1}.${mac}`, `${id}.${customer}.${exp}`, 'nonsense']) {
      const r = await open(altered);
      expect(r.status, altered).toBe(401);
      expect(r.state.msg).toBe('This query code is not valid: it was changed, cut short or made by another console');
      expect(JSON.stringify(r)).not.toContain(a.devNo);
    }
    const expired = await signCode(t.db, { id: made.id, customerId: a.customerId, exp: Date.now() - 1000 });
    const r = await open(expired);
    expect(r.status).toBe(401);
    expect(r.state.msg).toBe('This query code has expired (codes work for 7 days); ask for a new one');
  });

  it("refuses another customer's sensors, a half period and a period that ends before it starts", async () => {
    expect((await req(a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [b.sensorId] })).status).toBe(404);
    const half = await req(a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [a.sensorId], startTime: 1 });
    expect(half.result.errors).toEqual({ startTime: 'Give both the start and the end of the period, or neither' });
    const backwards = await req(a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [a.sensorId], startTime: 2, endTime: 1 });
    expect(backwards.status).toBe(400);
    expect((await req(a.cookie, 'POST', '/service/find/code/generate', { sensorIds: [] })).result.errors).toEqual({ sensorIds: 'Choose between 1 and 50 sensors' });
  });
});
