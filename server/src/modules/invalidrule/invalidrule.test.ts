import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { excludedSpans } from '../../alarm/excluded.js';
import { site, type Site } from '../../alarm/testkit.js';

/*
 * Invalid rules (/abnormal/invalidRule): the §5 rules of a rule with a passing and a failing
 * example each, carriers of the caller's customer only, and that a rule applies from the moment
 * it is created or changed (its versions), never to the past.
 */

let t: TestCtx;
let alpha: string;
let beta: string;
let fridge: Site;
let other: Site;
let betaFridge: Site;
const en = { 'accept-language': 'en-US' };
const call = (method: string, url: string, cookie: string, payload?: unknown) => t.app.inject({ method: method as any, url, headers: { cookie, ...en }, payload: payload as any });
const H = 3_600_000;

beforeAll(async () => {
  t = await setup();
  alpha = await t.login('alpha');
  beta = await t.login('beta');
  fridge = await site(t.db, t.tenants.a.customerId, { name: 'Rule fridge' });
  other = await site(t.db, t.tenants.a.customerId, { name: 'Rule room' });
  betaFridge = await site(t.db, t.tenants.b.customerId, { name: 'Beta rule fridge' });
}, 180_000);
afterAll(() => t?.close());

const schedule = (extra: object = {}) => ({ name: `Defrost ${Math.random()}`, kind: 'schedule', carrierIds: [fridge.carrierId], weekdays: [1, 2, 3, 4, 5], windows: [{ from: 120, to: 150 }], ...extra });
const period = (extra: object = {}) => ({ name: `Loading ${Math.random()}`, kind: 'period', carrierIds: [fridge.carrierId], start: Date.now() + H, end: Date.now() + 2 * H, ...extra });

/** The answer's code and, on a refusal, the field the message is for. */
async function answer(method: string, url: string, payload: unknown, cookie = alpha) {
  const r = await call(method, url, cookie, payload);
  const body = r.json();
  return { status: r.statusCode, code: body.state.code as number, msg: body.state.msg as string, result: body.result };
}

describe('invalid rules: validation (spec §5)', () => {
  it('takes a schedule with weekdays and sane windows; refuses none, duplicates, an empty window, overlaps', async () => {
    expect((await answer('POST', '/service/invalidRule/add', schedule())).code).toBe(200000);
    // A window past midnight is sane.
    expect((await answer('POST', '/service/invalidRule/add', schedule({ windows: [{ from: 1380, to: 60 }, { from: 120, to: 180 }] }))).code).toBe(200000);
    for (const bad of [{ weekdays: [] }, { weekdays: [1, 1] }, { windows: [] }, { windows: [{ from: 60, to: 60 }] }, { windows: [{ from: 0, to: 1440 }] }, { windows: [{ from: 1380, to: 60 }, { from: 30, to: 90 }] }]) {
      const r = await answer('POST', '/service/invalidRule/add', schedule(bad));
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('takes a period whose start is before its end; refuses a start later than the end, an empty one, one longer than 31 days', async () => {
    expect((await answer('POST', '/service/invalidRule/add', period())).code).toBe(200000);
    const now = Date.now();
    const later = await answer('POST', '/service/invalidRule/add', period({ start: now + 2 * H, end: now + H }));
    expect(later.status).toBe(400);
    expect(later.msg).toContain('The start cannot be later than the end');
    expect((await answer('POST', '/service/invalidRule/add', period({ start: now, end: now }))).status).toBe(400);
    expect((await answer('POST', '/service/invalidRule/add', period({ start: now, end: now + 32 * 24 * H }))).status).toBe(400);
    expect((await answer('POST', '/service/invalidRule/add', period({ start: undefined }))).status).toBe(400);
  });

  it('needs at least one carrier, of the caller\'s customer', async () => {
    expect((await answer('POST', '/service/invalidRule/add', period({ carrierIds: [] }))).status).toBe(400);
    const foreign = await answer('POST', '/service/invalidRule/add', period({ carrierIds: [fridge.carrierId, betaFridge.carrierId] }));
    expect(foreign.status).toBe(400);
    expect(foreign.msg).toContain('not one of the rule');
    expect((await answer('POST', '/service/invalidRule/add', period({ carrierIds: [betaFridge.carrierId] }), beta)).code).toBe(200000);
  });

  it('takes a reason of the customer\'s catalogue only, and a unique name (418)', async () => {
    const [mine] = await t.db.query<{ id: number }>(`SELECT id FROM ex_catalog WHERE customer_id = $1 AND code = 'defrost'`, [t.tenants.a.customerId]);
    const [theirs] = await t.db.query<{ id: number }>(`SELECT id FROM ex_catalog WHERE customer_id = $1 AND code = 'defrost'`, [t.tenants.b.customerId]);
    const ok = await answer('POST', '/service/invalidRule/add', schedule({ name: 'Nightly defrost', reasonId: mine.id }));
    expect(ok.code).toBe(200000);
    expect((await answer('POST', '/service/invalidRule/add', schedule({ reasonId: theirs.id }))).status).toBe(400);
    expect((await answer('POST', '/service/invalidRule/add', schedule({ name: 'Nightly defrost' }))).code).toBe(418);
    const d = (await answer('GET', `/service/invalidRule/detail?id=${ok.result.id}`, undefined)).result;
    expect(d).toMatchObject({ name: 'Nightly defrost', kind: 'schedule', weekdays: [1, 2, 3, 4, 5], windows: [{ from: 120, to: 150 }], reasonEn: 'Defrost cycle', enabled: true, createdBy: expect.any(String), timeZone: '+08:00' });
    expect(d.carriers).toEqual([{ id: fridge.carrierId, name: 'Rule fridge' }]);
    expect(d.inForceSince).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('invalid rules: they never rewrite the past', () => {
  it('excludes a period from the moment the rule is created, not before', async () => {
    const now = Date.now();
    const { result } = await answer('POST', '/service/invalidRule/add', period({ carrierIds: [other.carrierId], start: now - 2 * H, end: now + H }));
    const spans = (await excludedSpans(t.db, [other.carrierId], now - 3 * H, now + 2 * H)).get(other.carrierId)!;
    expect(spans).toHaveLength(1);
    expect(spans[0].ruleId).toBe(result.id);
    // Cut at creation (the server's now), not at the period's start two hours back.
    expect(spans[0].start).toBeGreaterThan(now - 60_000);
    expect(spans[0].end).toBe(now + H);
  });

  it('keeps what a rule excluded when it is changed, disabled or deleted, and logs each change', async () => {
    const now = Date.now();
    const third = await site(t.db, t.tenants.a.customerId, { name: 'Rule van' });
    const body = period({ carrierIds: [third.carrierId], start: now - H, end: now + 3 * H });
    const { result } = await answer('POST', '/service/invalidRule/add', body);
    // Backdate its version as if created two hours ago (the test cannot wait).
    await t.db.query(`UPDATE invalid_rule_version SET valid_from = valid_from - interval '2 hours' WHERE rule_id = $1`, [result.id]);
    const before = (await excludedSpans(t.db, [third.carrierId], now - 3 * H, now + 4 * H)).get(third.carrierId)!;
    expect(before).toEqual([{ start: now - H, end: now + 3 * H, ruleId: result.id }]);
    // A rename changes no period.
    expect((await answer('PUT', '/service/invalidRule/update', { ...body, id: result.id, name: 'Renamed' })).code).toBe(200000);
    expect((await t.db.query('SELECT id FROM invalid_rule_version WHERE rule_id = $1', [result.id])).length).toBe(1);
    // Moving the period's start later changes what comes, not what was excluded already.
    expect((await answer('PUT', '/service/invalidRule/update', { ...body, id: result.id, name: 'Renamed', start: now + H })).code).toBe(200000);
    const after = (await excludedSpans(t.db, [third.carrierId], now - 3 * H, now + 4 * H)).get(third.carrierId)!;
    expect(after[0].start).toBe(now - H);
    expect(after[0].end).toBeGreaterThan(now - 60_000);
    expect(after.at(-1)).toEqual({ start: now + H, end: now + 3 * H, ruleId: result.id });
    // Disabled: nothing from now on; the past stays.
    expect((await answer('PUT', '/service/invalidRule/status', { ids: [result.id], enabled: false })).result).toEqual({ changed: 1 });
    const off = (await excludedSpans(t.db, [third.carrierId], now - 3 * H, now + 4 * H)).get(third.carrierId)!;
    expect(off).toHaveLength(1);
    expect(off[0].start).toBe(now - H);
    // Deleted: gone from the list, its past kept.
    expect((await answer('DELETE', `/service/invalidRule/del?ids=${result.id}`, undefined)).result).toEqual({ deleted: 1 });
    expect((await answer('GET', `/service/invalidRule/detail?id=${result.id}`, undefined)).status).toBe(404);
    expect((await excludedSpans(t.db, [third.carrierId], now - 3 * H, now + 4 * H)).get(third.carrierId)).toEqual(off);
    const log = await t.db.query<{ method: string }>(`SELECT method FROM sys_log WHERE module = 'invalidRule' ORDER BY id`);
    expect(log.map((l) => l.method)).toEqual(expect.arrayContaining(['add', 'update', 'disable', 'del']));
  });

  it('lists the customer\'s rules only, filters them, and refuses another customer\'s ids (404, nothing changes)', async () => {
    const mine = (await answer('GET', `/service/invalidRule/page?carrierId=${fridge.carrierId}&iDisplayLength=100`, undefined)).result;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.rows.every((r: { customerId: number }) => r.customerId === t.tenants.a.customerId)).toBe(true);
    expect((await answer('GET', '/service/invalidRule/page?kind=defrost', undefined)).result.total).toBe(0);
    const id = mine.rows[0].id;
    expect((await answer('PUT', '/service/invalidRule/status', { ids: [id], enabled: false }, beta)).status).toBe(404);
    expect((await answer('DELETE', `/service/invalidRule/del?ids=${id}`, undefined, beta)).status).toBe(404);
    expect((await answer('GET', `/service/invalidRule/detail?id=${id}`, undefined)).result.enabled).toBe(true);
    expect((await answer('GET', '/service/invalidRule/page', undefined, beta)).result.rows.every((r: { customerId: number }) => r.customerId === t.tenants.b.customerId)).toBe(true);
  });
});
