import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, setup, type TestCtx } from '../../../test/helper.js';
import { png, uploadAs } from '../../../test/upload.js';

/*
 * Signed handling of exception records (docs/alarms.md "Handling and signatures"): every rule
 * with a passing and a failing call, the bulk calls all or nothing, foreign and unknown ids,
 * the signature (two components, counted toward the login lockout, nothing recorded when
 * wrong), the signed copy of the image, and what the detail shows.
 */

let t: TestCtx;
let alpha: string;
let beta: string;
let sceneCarrier: number;
const en = { 'accept-language': 'en-US' };
const sign = { account: 'alpha', password: PASSWORD };

beforeAll(async () => {
  t = await setup();
  await t.db.query(`UPDATE app_user SET name = 'Li Wei' WHERE account = 'alpha'`);
  alpha = await t.login('alpha');
  beta = await t.login('beta');
  const scene = await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, label, code) VALUES ($1, 'Ward', 'W1') RETURNING id`, [t.tenants.a.customerId]);
  sceneCarrier = (await t.db.one<{ id: number }>(`INSERT INTO carrier (customer_id, scene_id, name, type) VALUES ($1, $2, 'Vaccine fridge', 2) RETURNING id`, [t.tenants.a.customerId, scene!.id]))!.id;
}, 180_000);
afterAll(() => t?.close());
// Each test starts with no wrong signatures counted from the test's address.
beforeEach(() => t.db.query('DELETE FROM login_failure'));

/** An exception of customer `customerId`: over unless `ongoing`, in `status`. */
async function exception(customerId = t.tenants.a.customerId, opts: { ongoing?: boolean; status?: number } = {}) {
  const ongoing = opts.ongoing ?? false;
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO exception_record (customer_id, carrier_id, type, category, status, ongoing, start_ts, end_ts, duration_s, first_value, peak_value, limit_min, limit_max)
     VALUES ($1, $2, 'data', 'temp_high', $3, $4, now() - interval '2 hours', CASE WHEN $4 THEN NULL ELSE now() - interval '1 hour' END, CASE WHEN $4 THEN NULL ELSE 3600 END, 8.5, 11.2, 2, 8) RETURNING id`,
    // (one ongoing exception per carrier and category: the ongoing ones have none)
    [customerId, customerId === t.tenants.a.customerId && !ongoing ? sceneCarrier : null, opts.status ?? 0, ongoing],
  );
  return row!.id;
}

const call = (method: string, url: string, payload?: unknown, cookie = alpha) => t.app.inject({ method: method as any, url, headers: { cookie, ...en }, payload: payload as any });
const reasons = async (cookie = alpha) => (await call('GET', '/service/exReason/options', undefined, cookie)).json().result as { id: number; code: string; nameEn: string }[];
const reasonOf = async (code: string, cookie = alpha) => (await reasons(cookie)).find((r) => r.code === code)!.id;
const body = async (ids: number[], extra: Record<string, unknown> = {}) => ({ ids, reasonId: await reasonOf('door_open'), measures: 'Closed the door; goods checked at 6.1 °C', judgement: 'confirmed', sign, ...extra });
const handle = async (ids: number[], extra: Record<string, unknown> = {}, cookie = alpha) => call('PUT', '/service/exception/handle', await body(ids, extra), cookie);
const close = (ids: number[], payload: unknown = { sign }, cookie = alpha) => call('PUT', `/service/exception/close?ids=${ids.join(',')}`, payload, cookie);
const record = (id: number) => t.db.one<{ status: number; reason: string; reason_id: number | null; judgement: string | null; excluded: boolean; excluded_why: string; measures: string }>('SELECT * FROM exception_record WHERE id = $1', [id]);
const steps = (id: number) => t.db.query<{ action: string; meaning: string; user_name: string; signature_id: number | null; status_before: number; status_after: number; comment: string }>('SELECT * FROM exception_handling WHERE exception_id = $1 ORDER BY id', [id]);
const failures = async () => (await t.db.one<{ n: number }>('SELECT coalesce(sum(failures), 0)::int AS n FROM login_failure WHERE user_id = $1', [t.tenants.a.userId]))!.n;

describe('handling: pending → processed, signed', () => {
  it('handles several pending exceptions in one signed call: a step each, the record\'s current state', async () => {
    const ids = [await exception(), await exception()];
    const res = await handle(ids, { excluded: true, excludedWhy: 'Probe lay outside the goods', judgement: 'suspected', meaning: 'approved', comment: 'Checked by QA' });
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { handled: 2, status: 1 } });
    for (const id of ids) {
      expect(await record(id)).toMatchObject({ status: 1, reason: 'Door left open', judgement: 'suspected', excluded: true, excluded_why: 'Probe lay outside the goods', measures: 'Closed the door; goods checked at 6.1 °C' });
      expect(await steps(id)).toEqual([expect.objectContaining({ action: 'handle', meaning: 'approved', user_name: 'Li Wei', status_before: 0, status_after: 1, comment: 'Checked by QA', signature_id: null })]);
    }
    const log = await t.db.one<{ result: number; params: { signer: string; ids: number[] } }>(`SELECT result, params FROM sys_log WHERE module = 'exception' AND method = 'handle' ORDER BY id DESC LIMIT 1`);
    expect(log).toMatchObject({ result: 1, params: { signer: 'alpha', ids } });
    expect(JSON.stringify(log)).not.toContain(PASSWORD);
  });

  it('names the reason in the signer\'s language', async () => {
    const id = await exception();
    await t.app.inject({ method: 'PUT', url: '/service/exception/handle', headers: { cookie: alpha, 'accept-language': 'zh-CN' }, payload: await body([id]) });
    expect((await record(id))!.reason).toBe('门未关好');
  });

  it('refuses the whole bulk when one record is foreign, unknown, processed or closed: nothing changes', async () => {
    const mine = await exception();
    const foreign = await exception(t.tenants.b.customerId);
    expect((await handle([mine, foreign])).statusCode).toBe(404);
    expect((await handle([mine, 99_999_999])).statusCode).toBe(404);
    const processed = await exception(undefined, { status: 1 });
    expect((await handle([mine, processed])).json().state).toEqual({ code: 500000, msg: 'This exception has already been handled: correct its handling instead' });
    const closed = await exception(undefined, { status: 2 });
    expect((await handle([mine, closed])).json().state).toEqual({ code: 500000, msg: 'A closed exception cannot be handled any more' });
    expect((await record(mine))!.status).toBe(0);
    expect(await steps(mine)).toEqual([]);
    expect(await steps(foreign)).toEqual([]);
    // A refused call is on the log with result 0.
    expect((await t.db.one<{ result: number }>(`SELECT result FROM sys_log WHERE module = 'exception' AND method = 'handle' ORDER BY id DESC LIMIT 1`))!.result).toBe(0);
  });

  it('takes an ongoing exception (the pharmacist acts while it lasts)', async () => {
    const id = await exception(undefined, { ongoing: true });
    expect((await handle([id])).json().state.code).toBe(200000);
  });

  it('wants a reason of the exception\'s own customer\'s catalogue, enabled', async () => {
    const id = await exception();
    const betaReason = await reasonOf('door_open', beta);
    expect((await handle([id], { reasonId: betaReason })).statusCode).toBe(404);
    const disabled = await reasonOf('other');
    await t.db.query('UPDATE ex_catalog SET enabled = false WHERE id = $1', [disabled]);
    expect((await handle([id], { reasonId: disabled })).json().state).toEqual({ code: 500000, msg: 'This reason is disabled: choose another one' });
    await t.db.query('UPDATE ex_catalog SET enabled = true WHERE id = $1', [disabled]);
    const missing = await call('PUT', '/service/exception/handle', { ...(await body([id])), reasonId: undefined });
    expect(missing.json().result.errors).toEqual({ reasonId: 'Choose a reason from the list' });
    expect((await record(id))!.status).toBe(0);
  });

  it('wants measures, a judgement, and why when excluded', async () => {
    const id = await exception();
    const noMeasures = await handle([id], { measures: '  ' });
    expect(noMeasures.json().result.errors).toEqual({ measures: 'Required' });
    const noJudgement = await handle([id], { judgement: 'maybe' });
    expect(noJudgement.json().result.errors).toEqual({ judgement: 'Choose confirmed or suspected abnormal' });
    const noWhy = await handle([id], { excluded: true });
    expect(noWhy.json().result.errors).toEqual({ excludedWhy: 'Say why the exception is excluded' });
    const closing = await handle([id], { meaning: 'closed' });
    expect(closing.json().result.errors).toEqual({ meaning: 'Choose what your signature means: reviewed or approved' });
    expect(await steps(id)).toEqual([]);
  });
});

describe('the signature', () => {
  it('is required: without it nothing is recorded and nothing is counted', async () => {
    const id = await exception();
    const res = await handle([id], { sign: undefined });
    expect(res.statusCode).toBe(400);
    expect(res.json().result.errors).toEqual({ sign: 'Sign with your account and password' });
    expect(await steps(id)).toEqual([]);
    expect(await failures()).toBe(0);
  });

  it('a wrong password records nothing and counts toward the login lockout', async () => {
    const id = await exception();
    const res = await handle([id], { sign: { account: 'alpha', password: 'wrong-one' } });
    expect(res.json().state).toEqual({ code: 500088, msg: 'The account or password of the signature is wrong (only your own account can sign)' });
    expect(res.json().result.errors).toEqual({ password: 'The account or password of the signature is wrong (only your own account can sign)' });
    expect(await steps(id)).toEqual([]);
    expect((await record(id))!.status).toBe(0);
    expect(await failures()).toBe(1);
    expect((await t.db.one<{ result: number }>(`SELECT result FROM sys_log WHERE module = 'exception' AND method = 'handle' ORDER BY id DESC LIMIT 1`))!.result).toBe(0);
    // The right one signs and clears the count, as a login does.
    expect((await handle([id])).json().state.code).toBe(200000);
    expect(await failures()).toBe(0);
  });

  it('is the signed-in user\'s own: another account, even with its right password, is refused and counted', async () => {
    const id = await exception();
    const res = await handle([id], { sign: { account: 'beta', password: PASSWORD } });
    expect(res.json().state.code).toBe(500088);
    expect(await steps(id)).toEqual([]);
    expect(await failures()).toBe(1);
  });

  it('five wrong in a row lock this address out of the account, for signatures and logins alike', async () => {
    const id = await exception();
    for (let i = 0; i < 6; i++) await handle([id], { sign: { account: 'alpha', password: `wrong${i}` } });
    const locked = await handle([id]);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().state.code).toBe(500103);
    expect(await steps(id)).toEqual([]);
    const login = await t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account: 'alpha', password: PASSWORD } });
    expect(login.statusCode).toBe(429);
  });

  it('copies the signer\'s image at signing: a later upload does not change what was signed', async () => {
    const first = png(400);
    expect((await uploadAs(t, '/service/share/signature/save', alpha, 'sign.png', first)).json().state.code).toBe(200000);
    const ids = [await exception(), await exception()];
    await handle(ids);
    const [a, b] = [(await steps(ids[0]))[0], (await steps(ids[1]))[0]];
    // One copy for the bulk signing.
    expect(a.signature_id).not.toBeNull();
    expect(b.signature_id).toBe(a.signature_id);
    const second = png(500);
    expect((await uploadAs(t, '/service/share/signature/save', alpha, 'sign2.png', second)).json().state.code).toBe(200000);
    const detail = (await call('GET', `/service/exception/detail?id=${ids[0]}`)).json().result;
    expect(detail.signatures[String(a.signature_id)]).toBe(`data:image/png;base64,${first.toString('base64')}`);
    // A step signed now points at the new image, in a copy of its own.
    await t.db.query('UPDATE exception_record SET status = 1 WHERE id = $1', [ids[0]]);
    await call('POST', '/service/exception/comment', { id: ids[0], comment: 'Re-checked', sign });
    const later = (await call('GET', `/service/exception/detail?id=${ids[0]}`)).json().result;
    const comment = later.steps.find((s: { action: string }) => s.action === 'comment');
    expect(comment.signatureId).not.toBe(a.signature_id);
    expect(later.signatures[String(comment.signatureId)]).toBe(`data:image/png;base64,${second.toString('base64')}`);
    await t.db.query(`UPDATE app_user SET signature = NULL WHERE account = 'alpha'`);
  });
});

describe('close, comment and correct', () => {
  it('closes processed records that are over, signed "closed"; refuses pending, ongoing and closed ones', async () => {
    const pending = await exception();
    const ongoing = await exception(undefined, { ongoing: true, status: 1 });
    const done = [await exception(undefined, { status: 1 }), await exception(undefined, { status: 1 })];
    expect((await close([done[0], pending])).json().state).toEqual({ code: 500000, msg: 'Only a processed exception can be closed or corrected: handle it first' });
    expect((await close([done[0], ongoing])).json().state).toEqual({ code: 500000, msg: 'An ongoing exception cannot be closed until it has ended' });
    const res = await close(done, { sign, comment: 'Goods released' });
    expect(res.json()).toMatchObject({ state: { code: 200000 }, result: { closed: 2 } });
    expect(await steps(done[0])).toEqual([expect.objectContaining({ action: 'close', meaning: 'closed', status_before: 1, status_after: 2, comment: 'Goods released' })]);
    expect((await close([done[1]])).json().state).toEqual({ code: 500000, msg: 'This exception is already closed' });
    expect((await record(pending))!.status).toBe(0);
  });

  it('judges the ids before the signature: a foreign id is 404 even unsigned, an unsigned close of good ids is refused', async () => {
    const foreign = await exception(t.tenants.b.customerId, { status: 1 });
    // No body at all, as a client of the earlier API would send.
    const bare = (ids: number[]) => call('PUT', `/service/exception/close?ids=${ids.join(',')}`);
    const r = await bare([foreign]);
    expect(r.statusCode, r.body).toBe(404);
    const mine = await exception(undefined, { status: 1 });
    const unsigned = await bare([mine]);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().result.errors).toEqual({ sign: 'Sign with your account and password' });
    expect((await close([mine], { comment: 'no signature' })).statusCode).toBe(400);
    expect((await record(mine))!.status).toBe(1);
    expect((await record(foreign))!.status).toBe(1);
  });

  it('a comment is a signed step on a record in any state, closed included, and changes nothing else', async () => {
    const closed = await exception(undefined, { status: 2 });
    const res = await call('POST', '/service/exception/comment', { id: closed, comment: 'Stability data reviewed: no impact', meaning: 'approved', sign });
    expect(res.json().state.code).toBe(200000);
    expect(await steps(closed)).toEqual([expect.objectContaining({ action: 'comment', meaning: 'approved', status_before: 2, status_after: 2 })]);
    expect((await record(closed))!.status).toBe(2);
    expect((await call('POST', '/service/exception/comment', { id: closed, comment: '', sign })).statusCode).toBe(400);
  });

  it('a correction is a new step on a processed record: the earlier step stays as signed', async () => {
    const id = await exception();
    await handle([id]);
    const res = await call('PUT', '/service/exception/correct', {
      id, reasonId: await reasonOf('sensor_fault'), measures: 'Sensor replaced', judgement: 'suspected', comment: 'The probe had slipped out of the box', sign,
    });
    expect(res.json().state.code).toBe(200000);
    expect((await steps(id)).map((s) => s.action)).toEqual(['handle', 'correct']);
    expect(await record(id)).toMatchObject({ status: 1, reason: 'Sensor fault', measures: 'Sensor replaced', judgement: 'suspected' });
    const first = await t.db.one<{ measures: string }>(`SELECT measures FROM exception_handling WHERE exception_id = $1 AND action = 'handle'`, [id]);
    expect(first!.measures).toBe('Closed the door; goods checked at 6.1 °C');
    // Without why, and on a pending or closed record, it is refused.
    const pending = await exception();
    const base = { reasonId: await reasonOf('other'), measures: 'm', judgement: 'confirmed', comment: 'why', sign };
    expect((await call('PUT', '/service/exception/correct', { ...base, id, comment: '' })).statusCode).toBe(400);
    expect((await call('PUT', '/service/exception/correct', { ...base, id: pending })).json().state.code).toBe(500000);
    const closed = await exception(undefined, { status: 2 });
    expect((await call('PUT', '/service/exception/correct', { ...base, id: closed })).json().state.msg).toBe('A closed exception cannot be handled any more');
  });

  it('lets a user without editEx do none of it', async () => {
    await t.addUser(t.tenants.a.customerId, 'viewer1', 'Operator');
    const viewer = await t.login('viewer1');
    const id = await exception(undefined, { status: 1 });
    const vs = { account: 'viewer1', password: PASSWORD };
    expect((await call('PUT', '/service/exception/handle', await body([id], { sign: vs }), viewer)).json().state.code).toBe(500102);
    expect((await close([id], { sign: vs }, viewer)).json().state.code).toBe(500102);
    expect((await call('POST', '/service/exception/comment', { id, comment: 'x', sign: vs }, viewer)).json().state.code).toBe(500102);
    expect(await steps(id)).toEqual([]);
  });
});

describe('the detail', () => {
  it('shows the steps with signer, time, meaning, and the customer\'s time zone', async () => {
    const id = await exception();
    const before = Date.now();
    await handle([id]);
    await t.db.query(`UPDATE customer SET time_zone = '+09:00' WHERE id = $1`, [t.tenants.a.customerId]);
    const d = (await call('GET', `/service/exception/detail?id=${id}`)).json().result;
    expect(d).toMatchObject({ status: 1, reason: 'Door left open', timeZone: '+09:00', carrierName: 'Vaccine fridge' });
    expect(d.steps).toEqual([expect.objectContaining({ action: 'handle', userName: 'Li Wei', userAccount: 'alpha', meaning: 'reviewed', reason: 'Door left open' })]);
    expect(d.steps[0].signedAt).toBeGreaterThanOrEqual(before - 5_000);
    await t.db.query(`UPDATE customer SET time_zone = '+08:00' WHERE id = $1`, [t.tenants.a.customerId]);
    expect((await call('GET', `/service/exception/detail?id=${id}`, undefined, beta)).statusCode).toBe(404);
  });
});
