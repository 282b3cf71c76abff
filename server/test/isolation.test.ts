import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_FUNCS } from '@coldwatch/contract';
import { hashPassword } from '../src/platform/auth/password.js';
import { setup, PASSWORD, type TestCtx } from './helper.js';
import { seedRecords, type Records } from '../src/modules/dm/records.fixture.js';
import { createCustomerWithAdmin } from '../src/platform/seed/root.js';
import { reachableFuncs } from '../src/platform/auth/funcs.js';
import { knownParams, pathFor, plainSample, queryOf, recordRoutes, shapeOf, takesId, unwrap, type Walked } from './routes.js';

/*
 * Tenant isolation, walked over EVERY route the modules register (DESIGN.md: "a test walks
 * every registered route as a user of another customer and must see nothing"). Routes are
 * recorded with an onRoute hook wrapped around each module before the app is built, so a
 * route added later is walked without editing this file; its parameters are derived from
 * its path and its zod schemas, filled with customer A's identifiers.
 *
 * 1. As customer B's administrator: no answer contains A's data, and A's rows (every table
 *    with a customer_id column) are byte-for-byte the same after every call.
 * 2. As a user of A without the functions (non-admin, view codes only): every route that
 *    needs a function the user lacks answers 500102 and changes nothing.
 * 3. As a proxy (agent) user, account type -1, whose proxy role governs customer B only and
 *    holds every function a proxy may hold: the same as 1. A proxy governing A does see A's
 *    carrier (the positive control: the proxy scope is not simply empty).
 */

const routes = recordRoutes({ skipHead: true });

/** Building, seeding two customers through the API and hashing passwords is slow on a busy two-core machine. */
const SETUP_MS = 180_000;
const WALK_MS = 600_000;

let t: TestCtx;
let a: Records;
let aIds: number[];
let aSecretHash: string;
let beta: string;
let viewer: string;
let proxyOfB: string;
let proxyOfA: string;

/** A proxy user (account type -1) of its own agency customer whose proxy role (level -1) governs `governed` and holds every function a proxy may hold. */
async function addProxy(account: string, governed: number): Promise<string> {
  const agency = await createCustomerWithAdmin(t.db, { name: `Agency ${account}`, code: `AG${account.toUpperCase()}`, account: `${account}admin`, password: PASSWORD });
  const role = await t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, 'Proxy', -1) RETURNING id`, [agency.customerId]);
  await t.db.query('INSERT INTO role_func (role_id, func) SELECT $1, unnest($2::text[])', [role!.id, reachableFuncs(-1, false)]);
  await t.db.query('INSERT INTO role_proxy_customer (role_id, governed_id) VALUES ($1, $2)', [role!.id, governed]);
  await t.addUser(agency.customerId, account, 'Proxy', -1);
  return t.login(account);
}

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  await seedRecords(t, 'beta', 'Beta', 'B1');
  const ex = await t.db.one<{ id: number }>(
    `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, type, category, start_ts) VALUES ($1, $2, $3, 'data', 'temp_high', now()) RETURNING id`,
    [a.customerId, a.carrierId, a.sensorId],
  );
  // A user of A with A's default Operator role: the view functions, nothing else.
  const viewerRow = await t.db.one<{ id: number }>(
    `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, 'alphaviewer', 'Viewer', $2, 0, false) RETURNING id`,
    [a.customerId, await hashPassword(PASSWORD)],
  );
  await t.db.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, id FROM role WHERE customer_id = $2 AND name = 'Operator'`, [viewerRow!.id, a.customerId]);
  aIds = [...new Set([a.sceneId, a.carrierId, a.gatewayId, a.sensorId, a.contactId, a.rangeId, ex!.id])];
  aSecretHash = (await t.db.one<{ secret_hash: string }>('SELECT secret_hash FROM gateway WHERE id = $1', [a.gatewayId]))!.secret_hash;
  beta = await t.login('beta');
  viewer = await t.login('alphaviewer');
  proxyOfB = await addProxy('agentb', t.tenants.b.customerId);
  proxyOfA = await addProxy('agenta', a.customerId);
}, SETUP_MS);
afterAll(() => t?.close());

/** A fingerprint of every row of A in every table that carries customer_id (new tables are picked up by themselves). */
async function snapshotOfA(): Promise<Record<string, string>> {
  const tables = await t.db.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_attribute att ON att.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE att.attname = 'customer_id' AND NOT att.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname = current_schema()
        -- sessions slide on use and the log grows by design; neither is A's data changed by B
        AND c.relname NOT IN ('user_session', 'sys_log')
      ORDER BY 1`,
  );
  const parts = tables.map((x) => `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "${x.relname}" t WHERE t.customer_id = $1) AS "${x.relname}"`);
  parts.push(`(SELECT md5(c::text) FROM customer c WHERE c.id = $1) AS customer`);
  return (await t.db.one<Record<string, string>>(`SELECT ${parts.join(', ')}`, [a.customerId]))!;
}

/** Strings that only A's records hold: one of them in an answer to B is a leak. */
const markers = () => ['Alpha', a.devNo, a.gatewaySn, a.sceneCode, a.secret, aSecretHash];

// ---- deriving a call from a route -------------------------------------------------------

/** A's identifiers by parameter name; `id`-like names are tried with each of A's record ids. */
const known = (id: number) => knownParams(a, id, true);
/** Body fields B might fill honestly, so that writes get past validation and meet the scope checks. */
const bodyDefaults: Record<string, unknown> = {
  name: 'Intruder', label: 'Intruder', devNo: 'INTRUDER9', sn: 'FFFFFFFFFFF0', phone: '13900000009', email: 'x@intruder.cn', tz: '+08:00',
  account: 'intruder', password: 'intruder1',
};

function sample(s: any, key: string, id: number): unknown {
  const k = known(id);
  const d = unwrap(s);
  if (key in k) {
    if (d?.type === 'array') return [id];
    if (key === 'ids' && d?.type !== 'string') return [id];
    return k[key];
  }
  if (key in bodyDefaults) return bodyDefaults[key];
  switch (d?.type) {
    case 'enum': return Object.values(d.entries)[0];
    case 'literal': return d.values[0];
    case 'union': return sample(d.options[0], key, id);
    default: return plainSample(d);
  }
}

function fill(schema: unknown, id: number, asQuery: boolean): Record<string, unknown> {
  const shape = shapeOf(schema);
  const k = known(id);
  if (!shape) return asQuery ? Object.fromEntries(Object.entries(k).filter(([, v]) => !Array.isArray(v))) : {};
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(shape)) {
    const v = asQuery ? (key in k ? sample(s, key, id) : undefined) : sample(s, key, id);
    if (v !== undefined) out[key] = Array.isArray(v) && asQuery ? v.join(',') : v;
  }
  return out;
}

/** One injectable call per A id when the route takes an id; one call otherwise. */
function callsFor(r: Walked) {
  return (takesId(r) ? aIds : [aIds[0]]).map((id) => {
    const path = pathFor(r, known(id), id);
    const query = queryOf(fill(r.schema?.querystring, id, true));
    const payload = r.method === 'GET' || r.method === 'DELETE' ? undefined : fill(r.schema?.body, id, false);
    return { method: r.method, url: query ? `${path}?${query}` : path, payload };
  });
}

const walkable = () => routes.filter((r) => r.url.startsWith('/service/') && !r.config.stream);

// ---- the walks --------------------------------------------------------------------------

describe('tenant isolation over every route', () => {
  it('records the routes of every module', () => {
    const urls = routes.map((r) => r.url);
    for (const u of ['/service/carrier/page', '/service/gateway/add', '/service/sensor/lst/:type', '/service/share/history', '/service/share/tree', '/service/live/stream']) {
      expect(urls).toContain(u);
    }
  });

  /** Walks every route as the holder of cookie: no answer holds A's markers, no call changes A's rows, the session survives. */
  async function walkAs(cookie: string) {
    const before = await snapshotOfA();
    const failures: string[] = [];
    for (const r of walkable()) {
      for (const c of callsFor(r)) {
        const res = await t.app.inject({ method: c.method as any, url: c.url, payload: c.payload as any, headers: r.config.public ? {} : { cookie } });
        const text = res.body;
        const leaked = markers().filter((m) => text.includes(m));
        if (leaked.length) failures.push(`${c.method} ${c.url} leaked ${leaked.join(', ')}: ${text.slice(0, 300)}`);
        if (res.statusCode >= 500) failures.push(`${c.method} ${c.url} → ${res.statusCode} ${text.slice(0, 200)}`);
        const after = await snapshotOfA();
        const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
        if (changed.length) failures.push(`${c.method} ${c.url} changed A's ${changed.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // The walk was made signed in throughout (a call that ended the session would make the rest vacuous).
    expect((await t.app.inject({ method: 'GET', url: '/service/mine/info', headers: { cookie } })).json().state.code).toBe(200000);
  }

  it("customer B's administrator sees and changes nothing of customer A", () => walkAs(beta), WALK_MS);

  it('a proxy user governing only customer B sees and changes nothing of customer A', () => walkAs(proxyOfB), WALK_MS);

  it("a proxy user governing customer A does see A's carrier (positive control)", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/service/carrier/page?iDisplayLength=100', headers: { cookie: proxyOfA } });
    expect(res.json().result.rows.map((r: { id: number }) => r.id)).toContain(a.carrierId);
    const asB = await t.app.inject({ method: 'GET', url: '/service/carrier/page?iDisplayLength=100', headers: { cookie: proxyOfB } });
    expect(asB.json().state.code).toBe(200000);
    expect(asB.json().result.rows.map((r: { id: number }) => r.id)).not.toContain(a.carrierId);
  });

  it('a user without the function gets 500102 on every route needing it, and nothing changes', async () => {
    const held = new Set(VIEW_FUNCS);
    const before = await snapshotOfA();
    const failures: string[] = [];
    let guarded = 0;
    for (const r of walkable()) {
      if (r.config.public || !(r.config.funcs ?? []).some((f) => !held.has(f))) continue;
      guarded++;
      for (const c of callsFor(r)) {
        const res = await t.app.inject({ method: c.method as any, url: c.url, payload: c.payload as any, headers: { cookie: viewer } });
        if (res.json().state?.code !== 500102) failures.push(`${c.method} ${c.url} → ${res.body.slice(0, 200)}`);
      }
    }
    const after = await snapshotOfA();
    expect(failures).toEqual([]);
    expect(after).toEqual(before);
    expect(guarded).toBeGreaterThan(15);
  }, WALK_MS);

  it('every write route outside the caller\'s own profile names its function codes', () => {
    // The caller's own things (profile, login, signature: changing another user's needs editUser, checked in the handler).
    const self = /^\/service\/(mine|user|share\/signature)\//;
    const bare = walkable().filter((r) => r.method !== 'GET' && !r.config.public && !self.test(r.url) && !(r.config.funcs ?? []).length);
    expect(bare.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("streams forward nothing of customer A to customer B", async () => {
    const streams = routes.filter((r) => r.config.stream);
    expect(streams.length).toBeGreaterThan(0);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    for (const r of streams) {
      let text = '';
      const req = http.get(`http://127.0.0.1:${port}${r.url}`, { headers: { cookie: beta } });
      await new Promise<void>((resolve) => req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.once('data', () => resolve());
      }));
      const aEvent = { customerId: a.customerId, sensorId: a.sensorId, devNo: a.devNo, carrierId: a.carrierId, ts: Date.now(), temp: 5 };
      t.bus.emit('reading', aEvent);
      t.bus.emit('exception', { customerId: a.customerId, exceptionId: 1, carrierId: a.carrierId, sensorId: a.sensorId, category: 'temp_high', ongoing: true });
      t.bus.emit('deviceStatus', { customerId: a.customerId, kind: 'sensor', id: a.sensorId, status: 0 });
      // B's own event is the fence: once it arrived, A's (emitted before) would have too.
      t.bus.emit('deviceStatus', { customerId: t.tenants.b.customerId, kind: 'gateway', id: 999, status: 1 });
      for (let i = 0; i < 300 && !text.includes('"id":999'); i++) await new Promise((res) => setTimeout(res, 10));
      req.destroy();
      expect(text).toContain('"id":999');
      expect(markers().filter((m) => text.includes(m))).toEqual([]);
      expect(text).not.toContain(`"customerId":${a.customerId},`);
    }
  });
});
