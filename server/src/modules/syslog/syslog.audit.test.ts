import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../platform/auth/password.js';
import { setup, PASSWORD, type TestCtx } from '../../../test/helper.js';
import { seedRecords, type Records } from '../shared/records.fixture.js';
import { def, knownParams, pathFor, plainSample, queryOf, recordRoutes, shapeOf, takesId, unwrap, type Walked } from '../../../test/routes.js';

/*
 * Spec §3 system log, issue 3 "every mutation anywhere in the console writes time, module,
 * operator, method, content, parameters and result". Walks EVERY POST/PUT/DELETE route the
 * modules register under /service/ (recorded with an onRoute hook, like the isolation test,
 * so a route added later is walked without editing this file) as customer A's administrator,
 * with parameters derived from the route's path and zod schemas. Every call answered 200000
 * must have added a system-log row of the caller with module, method and result 1.
 */

const routes = recordRoutes();

let t: TestCtx;
let a: Records;
let cookie: string;
/** Ids of A's records, a spare user and a spare role of A: the candidates for every `id`-like parameter. */
let ids: number[];
let operatorRole: number;
let menuEntry: number;
/** Routes A's administrator may not call (customers, menu resources) are walked as the platform root instead. */
let root: string;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  const spareUser = await t.addUser(a.customerId, 'alphaspare', 'Operator', 0);
  const spareRole = await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name) VALUES ($1, 'Spare role') RETURNING id`, [a.customerId]);
  const ex = await t.db.one<{ id: number }>(
    `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts, end_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now() - interval '1 hour', now()) RETURNING id`,
    [a.customerId, a.carrierId, a.sensorId],
  );
  ids = [...new Set([a.sceneId, a.carrierId, a.gatewayId, a.sensorId, a.contactId, ex!.id, spareUser, spareRole!.id])].filter((id) => id !== t.tenants.a.userId);
  operatorRole = (await t.db.one<{ id: number }>(`SELECT id FROM role WHERE customer_id = $1 AND name = 'Operator'`, [a.customerId]))!.id;
  menuEntry = (await t.db.one<{ id: number }>(`SELECT id FROM menu_resource WHERE code = 'sensor'`))!.id;
  cookie = await t.login('alpha');
  root = await t.login('admin');
}, 180_000);
afterAll(() => t?.close());

/** A call may end alpha's session (a password change, a role change): put the account back and log in again. */
async function keepSignedIn() {
  const res = await t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie } });
  if (res.json().state?.code === 200000) return;
  const { userId, customerId } = t.tenants.a;
  await t.db.query(`UPDATE app_user SET status = 1, user_type = 1, is_admin = true, password_hash = $2, account = 'alpha' WHERE id = $1`, [userId, await hashPassword(PASSWORD)]);
  await t.db.query(`UPDATE customer SET status = 1 WHERE id = $1`, [customerId]);
  await t.db.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, id FROM role WHERE customer_id = $2 AND name = 'Administrator' ON CONFLICT DO NOTHING`, [userId, customerId]);
  await t.db.query(`UPDATE role SET status = 1 WHERE customer_id = $1 AND name = 'Administrator'`, [customerId]);
  cookie = await t.login('alpha');
}

// ---- deriving a call from a route (as in test/isolation.test.ts) ----------------------------

let serial = 0;
const known = (id: number) => knownParams(a, id);
/** Fresh, valid values, so that adds get past the uniqueness rules. */
function bodyDefaults(): Record<string, unknown> {
  const n = ++serial;
  return {
    name: `Audit${n}`, label: `Audit${n}`, devNo: `AUD${n}`, sn: (0xa0000000000 + n).toString(16).toUpperCase().padStart(12, '0'),
    phone: `139${String(n).padStart(8, '0')}`, mobile: `137${String(n).padStart(8, '0')}`, email: `audit${n}@example.cn`, tz: '+08:00',
    account: `audit${n}`, code: `AUD${n}`, password: 'audit1234', confirmPassword: 'audit1234', gender: 1, status: 1, type: 2,
    oldPassword: PASSWORD, newPassword: 'audit1234', roleIds: [operatorRole], resourceIds: [menuEntry], isDefault: false,
  };
}

/** Device numbers and serials are ids in a path but new values in a body. */
const NEW_IN_BODY = new Set(['devNo', 'sn']);

function sample(s: any, key: string, id: number, defaults: Record<string, unknown>, body = false): unknown {
  const k = known(id);
  const d = unwrap(s);
  if (key in k && !(body && NEW_IN_BODY.has(key))) {
    if (d?.type === 'array') return [id];
    if (key === 'ids' && d?.type !== 'string') return [id];
    return k[key];
  }
  if (key in defaults) {
    const v = defaults[key];
    if (d?.type === 'enum' && !Object.values(d.entries).includes(v)) return sample(s, '', id, {});
    if (d?.type === 'string' && typeof v !== 'string') return String(v);
    return v;
  }
  switch (d?.type) {
    // a role is created 'normal' (an administrator creates only normal roles)
    case 'enum': return Object.values(d.entries).includes('normal') ? 'normal' : Object.values(d.entries)[0];
    case 'literal': return d.values[0];
    case 'union': return sample(d.options[0], key, id, defaults, body);
    default: return plainSample(d);
  }
}

function fill(schema: unknown, id: number, asQuery: boolean): Record<string, unknown> {
  const shape = shapeOf(schema);
  const k = known(id);
  if (!shape) return asQuery ? Object.fromEntries(Object.entries(k).filter(([, v]) => !Array.isArray(v))) : {};
  const defaults = bodyDefaults();
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(shape)) {
    const optional = ['optional', 'default', 'prefault'].includes(def(s)?.type);
    const v = !asQuery || key in k || key in defaults || !optional ? sample(s, key, id, defaults, !asQuery) : undefined;
    if (v !== undefined) out[key] = Array.isArray(v) && asQuery ? v.join(',') : v;
  }
  return out;
}

function callsFor(r: Walked, skip: number[] = []) {
  const candidates = ids.filter((id) => !skip.includes(id));
  return (takesId(r) ? candidates : [candidates[0]]).map((id) => {
    const path = pathFor(r, known(id), id);
    const query = queryOf(fill(r.schema?.querystring, id, true));
    const payload = r.method === 'DELETE' ? undefined : fill(r.schema?.body, id, false);
    return { method: r.method, url: query ? `${path}?${query}` : path, payload };
  });
}

/** Writes first, deletes last (a delete takes records the other calls could have used); the logout-like calls never. */
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
const mutations = () =>
  routes
    // A route that declares itself a read (a POST of the spec that changes nothing) is no write.
    .filter((r) => r.url.startsWith('/service/') && WRITES.includes(r.method) && !r.config.stream && !r.config.read)
    // logging in and out is logged by the login itself, and would replace the walker's session
    .filter((r) => !/\/(login|logout)$/.test(r.url))
    .sort((x, y) => WRITES.indexOf(x.method) - WRITES.indexOf(y.method));

const maxLogId = async () => (await t.db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM sys_log'))!.id;

describe('every mutation writes a system-log row', () => {
  it('records the write routes of every module', () => {
    const urls = mutations().map((r) => `${r.method} ${r.url}`);
    for (const u of ['POST /service/carrier/add', 'PUT /service/contact/update', 'DELETE /service/sensor/del', 'POST /service/mine/addShortcut']) expect(urls).toContain(u);
  });

  it('each write answered 200000 added a row of the caller with module, method and result 1', async () => {
    const unlogged: string[] = [];
    const succeeded = new Set<string>();
    const lastAnswer = new Map<string, string>();
    const failedWithoutRow: string[] = [];
    const refused = new Set<Walked>();
    const walk = async (r: Walked, asRoot: boolean) => {
      const caller = asRoot ? t.tenants.root.userId : t.tenants.a.userId;
      // the root never walks over the platform customer or itself
      for (const c of callsFor(r, asRoot ? [t.tenants.root.customerId, t.tenants.root.userId] : [])) {
        const before = await maxLogId();
        const res = await t.app.inject({ method: c.method as any, url: c.url, payload: c.payload as any, headers: { cookie: asRoot ? root : cookie } });
        let code: number | undefined;
        try {
          code = res.json().state?.code;
        } catch {
          code = undefined;
        }
        const rows = await t.db.query<{ module: string; method: string; operator: string; user_id: number | null; result: number; content: string }>(
          'SELECT module, method, operator, user_id, result, content FROM sys_log WHERE id > $1 ORDER BY id',
          [before],
        );
        // A public write (registration) is logged as the account it creates; any other as the caller.
        const mine = rows.filter((x) => (r.config.public || x.user_id === caller) && x.operator && x.module && x.method);
        if (code === 500102 && !asRoot) refused.add(r);
        if (code !== 404 || !lastAnswer.has(`${r.method} ${r.url}`)) lastAnswer.set(`${r.method} ${r.url}`, `${c.url.split('?')[0]} ${JSON.stringify(c.payload)?.slice(0, 200)} → ${code} ${res.body.slice(0, 160)}`);
        if (code === 200000) {
          succeeded.add(`${r.method} ${r.url}`);
          if (!mine.some((x) => x.result === 1)) unlogged.push(`${c.method} ${c.url} → 200000 without a result-1 row (${JSON.stringify(rows)})`);
        } else if (code !== undefined && ![400, 404, 500100, 500102].includes(code) && !mine.some((x) => x.result === 0)) {
          failedWithoutRow.push(`${c.method} ${c.url} → ${code}`);
        }
        if (!asRoot) await keepSignedIn();
      }
    };
    for (const r of mutations()) await walk(r, false);
    for (const r of mutations()) if (refused.has(r) && !succeeded.has(`${r.method} ${r.url}`)) await walk(r, true);
    const never = mutations().map((r) => `${r.method} ${r.url}`).filter((u) => !succeeded.has(u));
    // What the walk could not exercise (its derived call never succeeded), and refusals inside a
    // handler that left no result-0 row: read, not asserted (a refusal before the change starts,
    // e.g. a scope check, need not be logged).
    console.info(`audit walk: ${succeeded.size} write routes succeeded; never succeeded:\n${[...new Set(never)].map((u) => `  ${u}: ${lastAnswer.get(u)}`).join('\n') || 'none'}`);
    if (failedWithoutRow.length) console.info(`refused without a result-0 row: ${[...new Set(failedWithoutRow)].join(', ')}`);
    expect(succeeded.size).toBeGreaterThan(10);
    expect(unlogged).toEqual([]);
  }, 600_000);

  it('a failing mutation writes a row with result 0 and changes nothing', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { cookie }, payload: { name: 'Single', phone: '13811112222', groupName: 'audit' } });
    expect(first.json().state.code).toBe(200000);
    const before = await maxLogId();
    const count = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM contact WHERE customer_id = $1', [a.customerId]))!.n;
    const contacts = await count();
    // the same phone twice in one group is refused (422)
    const res = await t.app.inject({ method: 'POST', url: '/service/contact/add', headers: { cookie }, payload: { name: 'Twin', phone: '13811112222', groupName: 'audit' } });
    expect(res.json().state.code).toBe(422);
    expect(await count()).toBe(contacts);
    const rows = await t.db.query<any>('SELECT * FROM sys_log WHERE id > $1', [before]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ module: 'contact', method: 'add', operator: 'alpha', user_id: t.tenants.a.userId, customer_id: a.customerId, result: 0 });
    expect(rows[0].params).toMatchObject({ name: 'Twin' });
  });
});
