import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { jpeg, png, uploadAs } from '../../../test/upload.js';

/** Login rules (500105, single session → 500104) and the caller's own pages (`/service/mine/*`, signature). */

let t: TestCtx;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.close());

const en = { 'accept-language': 'en-US' };
const call = (method: string, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method: method as any, url, headers: { cookie, ...en }, payload: payload as any });
const loginWith = (account: string, cookie?: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/service/user/login', payload: { account, password }, headers: { ...en, ...(cookie ? { cookie } : {}) } });

const upload = (url: string, cookie: string, filename: string, data: Buffer, type?: string) => uploadAs(t, url, cookie, filename, data, type);

describe('login rules', () => {
  it('answers 500105 to a login of the account this browser is already signed in as, and keeps the session', async () => {
    const cookie = await t.login('alpha');
    const again = await loginWith('alpha', cookie);
    expect(again.json().state).toEqual({ code: 500105, msg: 'Do not log in again' });
    expect(again.cookies.find((c) => c.name === 'cw_session')).toBeUndefined();
    expect((await call('GET', '/service/mine/info', cookie)).json().state.code).toBe(200000);
  });

  it('another account logs in over an existing session, which ends', async () => {
    const cookie = await t.login('alpha');
    const other = await loginWith('beta', cookie);
    expect(other.json().state.code).toBe(200000);
    expect((await call('GET', '/service/mine/info', cookie)).json().state.code).toBe(500100);
    // An expired or unknown cookie does not block a login either.
    expect((await loginWith('alpha', 'cw_session=nonsense')).json().state.code).toBe(200000);
  });

  it('single_session off (default): two sessions of one account both work', async () => {
    const a = await t.login('beta');
    const b = await t.login('beta');
    expect((await call('GET', '/service/mine/info', a)).json().state.code).toBe(200000);
    expect((await call('GET', '/service/mine/info', b)).json().state.code).toBe(200000);
  });

  it('single_session on: a new login ends the other sessions, whose next call answers 500104', async () => {
    await t.db.query(`INSERT INTO setting (key, value) VALUES ('single_session', 'on') ON CONFLICT (key) DO UPDATE SET value = 'on'`);
    try {
      const first = await t.login('beta');
      const other = await t.login('alpha');
      const second = await t.login('beta');
      const r = await call('GET', '/service/mine/info', first);
      expect(r.statusCode).toBe(401);
      expect(r.json().state).toEqual({ code: 500104, msg: 'Logged in elsewhere, please log in again' });
      expect((await call('GET', '/service/mine/info', second)).json().state.code).toBe(200000);
      expect((await call('GET', '/service/mine/info', other)).json().state.code).toBe(200000);
    } finally {
      await t.db.query(`DELETE FROM setting WHERE key = 'single_session'`);
    }
  });

  it('a cancelled customer cannot log in', async () => {
    const id = await t.addUser(t.tenants.b.customerId, 'beta_late');
    void id;
    await t.db.query('UPDATE customer SET status = 0 WHERE id = $1', [t.tenants.b.customerId]);
    try {
      const r = await loginWith('beta_late');
      expect(r.json().state).toEqual({ code: 500103, msg: 'This account or its customer has been cancelled' });
    } finally {
      await t.db.query('UPDATE customer SET status = 1 WHERE id = $1', [t.tenants.b.customerId]);
    }
  });
});

describe('info, me and page info', () => {
  it('info and me answer user, scope, switchScope and guide_on', async () => {
    const cookie = await t.login('alpha');
    const info = (await call('GET', '/service/mine/info', cookie)).json().result;
    expect(info).toMatchObject({ scope: { customer_id: t.tenants.a.customerId, type: 1 }, switchScope: [], guide_on: true });
    expect(info.user).toMatchObject({ account: 'alpha', defaultAccount: true, avatar: null, hasSignature: false });
    expect(info.user).not.toHaveProperty('password_hash');
    const me = (await call('GET', '/service/mine/me', cookie)).json().result;
    expect(me).toEqual(info);
  });

  it('a proxy sees the customers it governs in switchScope', async () => {
    const [{ id: roleId }] = await t.db.query<{ id: number }>(`INSERT INTO role (customer_id, name, level, type) VALUES ($1, 'Agent', -1, 'normal') RETURNING id`, [t.tenants.a.customerId]);
    await t.db.query('INSERT INTO role_proxy_customer (role_id, governed_id) VALUES ($1, $2)', [roleId, t.tenants.b.customerId]);
    await t.addUser(t.tenants.a.customerId, 'agent1', 'Agent', -1);
    const cookie = await t.login('agent1');
    const info = (await call('GET', '/service/mine/info', cookie)).json().result;
    expect(info.scope.type).toBe(-1);
    expect(info.switchScope).toEqual([{ id: t.tenants.b.customerId, name: 'Beta Clinic', code: 'BETA', current: false }]);
  });

  it('page info carries funcs, auths, the user, its type, isRoot and the menu', async () => {
    const root = (await call('GET', '/service/mine/pageInfo', await t.login('admin'))).json().result;
    expect(root.isRoot).toBe(true);
    expect(root.userType).toBe(3);
    expect(JSON.stringify(root.menu)).toContain('"code":"resource"');
    const a = (await call('GET', '/service/mine/pageInfo', await t.login('alpha'))).json().result;
    expect(a.isRoot).toBe(false);
    expect(a.funcs).toContain('viewUser');
    expect(a.auths.newUser).toBe(true);
    expect(Array.isArray(a.menu)).toBe(true);
    expect(JSON.stringify(a.menu)).not.toContain('"code":"resource"');
  });
});

describe('personal profile', () => {
  let cookie: string;
  beforeAll(async () => {
    await t.addUser(t.tenants.a.customerId, 'self1');
    await t.addUser(t.tenants.a.customerId, 'self2');
    await t.db.query(`UPDATE app_user SET mobile = '13600000002', email = 'self2@example.com' WHERE account = 'self2'`);
    cookie = await t.login('self1');
  });
  const body = (over: Record<string, unknown> = {}) => ({ name: 'Self One', gender: 0, mobile: '13600000001', email: 'self1@example.com', ...over });

  const cases: { rule: string; good: Record<string, unknown>; bad: Record<string, unknown>; code: number }[] = [
    { rule: 'valid e-mail (412)', good: body({ email: '' }), bad: body({ email: 'self1@' }), code: 412 },
    { rule: 'mobile required', good: body(), bad: body({ mobile: '' }), code: 400 },
    { rule: 'mobile format', good: body({ mobile: '0755-1234567' }), bad: body({ mobile: '123' }), code: 400 },
    { rule: 'name required', good: body(), bad: body({ name: ' ' }), code: 400 },
    { rule: 'user name unique (417)', good: body({ name: 'Self Uno' }), bad: body({ name: 'self2' }), code: 417 },
    { rule: 'mobile unique (418)', good: body(), bad: body({ mobile: '13600000002' }), code: 418 },
    { rule: 'e-mail unique (419)', good: body(), bad: body({ email: 'SELF2@example.com' }), code: 419 },
  ];
  for (const c of cases) {
    it(`${c.rule}: passes and fails`, async () => {
      expect((await call('PUT', '/service/mine/personal', cookie, c.good)).json().state.code).toBe(200000);
      const saved = await t.db.one('SELECT name, mobile, email FROM app_user WHERE account = $1', ['self1']);
      expect((await call('PUT', '/service/mine/personal', cookie, c.bad)).json().state.code).toBe(c.code);
      expect(await t.db.one('SELECT name, mobile, email FROM app_user WHERE account = $1', ['self1'])).toEqual(saved);
    });
  }

  it('stores the profile and the guide flag', async () => {
    await call('PUT', '/service/mine/personal', cookie, body());
    await call('PUT', '/service/mine/guide?on=0', cookie);
    const info = (await call('GET', '/service/mine/info', cookie)).json().result;
    expect(info.user).toMatchObject({ name: 'Self One', gender: 0, mobile: '13600000001', email: 'self1@example.com' });
    expect(info.guide_on).toBe(false);
  });
});

describe('password change', () => {
  it('checks the old password, the rule and the two entries; other sessions end', async () => {
    await t.addUser(t.tenants.a.customerId, 'pw1');
    const here = await t.login('pw1');
    const elsewhere = await t.login('pw1');
    const put = (b: unknown) => call('PUT', '/service/mine/password', here, b);

    const wrongOld = await put({ oldPassword: 'nope', newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(wrongOld.json().state).toEqual({ code: 500000, msg: 'Old password incorrect' });
    const short = await put({ oldPassword: PASSWORD, newPassword: 'ab1', confirmPassword: 'ab1' });
    expect(short.json().state.code).toBe(400);
    expect(short.json().result.errors.newPassword).toBe('Password: 6 to 20 letters and digits');
    const symbols = await put({ oldPassword: PASSWORD, newPassword: 'new pass!', confirmPassword: 'new pass!' });
    expect(symbols.json().state.code).toBe(400);
    const mismatch = await put({ oldPassword: PASSWORD, newPassword: 'newpass1', confirmPassword: 'newpass2' });
    expect(mismatch.json().state.code).toBe(400);
    expect(mismatch.json().result.errors.confirmPassword).toBe('Passwords inconsistent');
    // Nothing changed so far.
    expect((await call('GET', '/service/mine/info', elsewhere)).json().state.code).toBe(200000);
    await t.login('pw1');

    const good = await put({ oldPassword: PASSWORD, newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(good.json().state.code).toBe(200000);
    expect((await call('GET', '/service/mine/info', here)).json().state.code).toBe(200000);
    expect((await call('GET', '/service/mine/info', elsewhere)).json().state.code).toBe(500100);
    expect((await loginWith('pw1')).json().state.code).toBe(500088);
    await t.login('pw1', 'newpass1');
    const log = await t.db.one<{ params: any }>(`SELECT params FROM sys_log WHERE module = 'mine' AND method = 'password' ORDER BY id DESC LIMIT 1`);
    expect(JSON.stringify(log!.params)).not.toContain('newpass1');
  });
});

describe('avatar and signature uploads', () => {
  let cookie: string;
  beforeAll(async () => {
    await t.addUser(t.tenants.a.customerId, 'pic1');
    cookie = await t.login('pic1');
  });

  it('accepts a PNG and a JPEG avatar and serves it back', async () => {
    const data = png(5000);
    const r = await upload('/service/mine/upload', cookie, 'me.png', data, 'image/png');
    expect(r.json().state.code, r.body).toBe(200000);
    expect(r.json().result).toMatchObject({ mime: 'image/png', size: 5000 });
    const img = await t.app.inject({ method: 'GET', url: '/service/mine/avatar', headers: { cookie } });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.rawPayload, data)).toBe(0);
    const info = (await call('GET', '/service/mine/info', cookie)).json().result;
    expect(info.user.avatar).toBe(r.json().result.avatar);
    const j = await upload('/service/mine/upload', cookie, 'me.JPEG', jpeg(3000), 'image/jpeg');
    expect(j.json().state.code).toBe(200000);
    const img2 = await t.app.inject({ method: 'GET', url: '/service/mine/avatar', headers: { cookie } });
    expect(img2.headers['content-type']).toBe('image/jpeg');
    expect((await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM stored_file WHERE kind = 'avatar' AND user_id = (SELECT id FROM app_user WHERE account = 'pic1')`))!.n).toBe(1);
  });

  const rejected: [string, string, Buffer, string][] = [
    ['a .png that is really text', 'fake.png', Buffer.from('this is not a picture at all'), 'Only JPG, JPEG or PNG pictures can be uploaded'],
    ['a PNG named .gif', 'me.gif', png(100), 'Only JPG, JPEG or PNG pictures can be uploaded'],
    ['a 3 MB PNG', 'big.png', png(3 * 1024 * 1024), 'The picture must be smaller than 2 MB'],
    ['exactly 2 MB', 'edge.png', png(2 * 1024 * 1024), 'The picture must be smaller than 2 MB'],
  ];
  for (const [what, name, data, msg] of rejected) {
    it(`rejects ${what}`, async () => {
      const before = await t.db.one('SELECT avatar FROM app_user WHERE account = $1', ['pic1']);
      const r = await upload('/service/mine/upload', cookie, name, data, 'image/png');
      expect(r.json().state).toEqual({ code: 500000, msg });
      expect(await t.db.one('SELECT avatar FROM app_user WHERE account = $1', ['pic1'])).toEqual(before);
      const log = await t.db.one<{ result: number }>(`SELECT result FROM sys_log WHERE module = 'mine' AND method = 'upload' ORDER BY id DESC LIMIT 1`);
      expect(log!.result).toBe(0);
    });
  }

  it('accepts just under 2 MB; without a file it answers a message', async () => {
    expect((await upload('/service/mine/upload', cookie, 'edge.png', png(2 * 1024 * 1024 - 1))).json().state.code).toBe(200000);
    const none = await call('POST', '/service/mine/upload', cookie, {});
    expect(none.json().state.code).toBe(500000);
  });

  it('serves another user avatar only inside the scope', async () => {
    const pic1 = (await t.db.one<{ id: number }>('SELECT id FROM app_user WHERE account = $1', ['pic1']))!.id;
    const a = await t.app.inject({ method: 'GET', url: `/service/mine/avatar?id=${pic1}`, headers: { cookie: await t.login('alpha') } });
    expect(a.statusCode).toBe(200);
    const b = await t.app.inject({ method: 'GET', url: `/service/mine/avatar?id=${pic1}`, headers: { cookie: await t.login('beta') } });
    expect(b.json().state.code).toBe(404);
  });

  it('digital signature: PNG/JPG under 500 KB, saved and shown', async () => {
    const empty = (await call('GET', '/service/share/signature/detail', cookie)).json().result;
    expect(empty.signature).toBeNull();
    const data = png(100 * 1024);
    expect((await upload('/service/share/signature/save', cookie, 'sign.png', data)).json().state.code).toBe(200000);
    const d = (await call('GET', '/service/share/signature/detail', cookie)).json().result;
    expect(d.signature).toBe(`data:image/png;base64,${data.toString('base64')}`);
    expect(d.size).toBe(data.length);
    const big = await upload('/service/share/signature/save', cookie, 'sign.png', png(600 * 1024));
    expect(big.json().state).toEqual({ code: 500000, msg: 'The picture must be smaller than 500 KB' });
    const text = await upload('/service/share/signature/save', cookie, 'sign.jpg', Buffer.from('plain text'));
    expect(text.json().state.code).toBe(500000);
    expect((await call('GET', '/service/mine/info', cookie)).json().result.user.hasSignature).toBe(true);
  });

  it("an administrator saves a user's signature in its scope; another customer gets 404", async () => {
    const pic1 = (await t.db.one<{ id: number }>('SELECT id FROM app_user WHERE account = $1', ['pic1']))!.id;
    const alpha = await t.login('alpha');
    expect((await upload(`/service/share/signature/save?userId=${pic1}`, alpha, 's.jpg', jpeg(2000))).json().state.code).toBe(200000);
    expect((await call('GET', `/service/share/signature/detail?userId=${pic1}`, alpha)).json().result.mime).toBe('image/jpeg');
    const beta = await t.login('beta');
    expect((await upload(`/service/share/signature/save?userId=${pic1}`, beta, 's.jpg', jpeg(2000))).json().state.code).toBe(404);
    expect((await call('GET', `/service/share/signature/detail?userId=${pic1}`, beta)).json().state.code).toBe(404);
    // A plain user cannot write someone else's signature.
    expect((await upload(`/service/share/signature/save?userId=${t.tenants.a.userId}`, cookie, 's.jpg', jpeg(2000))).json().state.code).toBe(500102);
  });
});

describe('the language of the answers (spec §1: cookie, stored setting, browser, Chinese)', () => {
  const info = (cookie: string, language?: string) =>
    t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie, ...(language ? { 'accept-language': language } : {}) } }).then((r) => r.json().state.msg);

  it('follows the stored setting once set, over the browser, under the cookie', async () => {
    await t.addUser(t.tenants.a.customerId, 'alphalang');
    const session = await t.login('alphalang');
    expect(await info(session)).toBe('成功');
    expect(await info(session, 'en-US')).toBe('Success');
    const set = await t.app.inject({ method: 'PUT', url: '/service/mine/locale?lang=en-US', headers: { cookie: session } });
    expect(set.json().state).toEqual({ code: 200000, msg: 'Success' });
    // Only the session cookie: the stored en-US answers, though the browser asks for Chinese.
    expect(await info(session)).toBe('Success');
    expect(await info(session, 'zh-CN')).toBe('Success');
    // The cookie comes first.
    expect(await info(`${session}; lang=zh-CN`, 'en-US')).toBe('成功');
    // Changed again (here by another session of the same user): the next request follows.
    const other = await t.login('alphalang');
    await t.app.inject({ method: 'PUT', url: '/service/mine/locale?lang=zh-CN', headers: { cookie: other } });
    expect(await info(session, 'en-US')).toBe('成功');
  });
});
