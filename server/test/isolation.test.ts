import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_FUNCS } from '@coldwatch/contract';
import { hashPassword } from '../src/platform/auth/password.js';
import { setup, PASSWORD, type TestCtx } from './helper.js';
import { call, seedRecords, type Records } from '../src/modules/shared/records.fixture.js';
import { createCustomerWithAdmin } from '../src/platform/seed/root.js';
import { reachableFuncs } from '../src/platform/auth/funcs.js';
import { storeDownload } from '../src/modules/download/index.js';
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
 * 4. As a user of A whose scene limit (docs/permissions.md "Scene limit") covers another scene
 *    of A only, holding every function of A's Administrator: no answer contains A's records of
 *    the seeded scene (its scene, carrier, gateway, sensor, exception and notice), and no row
 *    bound to them (every table with a scene, carrier, gateway, sensor or exception link) changes.
 *    The same user does see its own scene's carrier (the positive control).
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
let limited: string;
let limitedOwn: Records;
let exA: number;
let busIds: number[];
let verifyA: number;
/** A's work order and query code (migration 0045), trip (0046) and place (0053), walked by their ids. */
let workA: number[];
/** A's download record (migration 0050). */
let downloadA: number;

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
  // The scene-bound records get ids far from those of the customer-wide ones (users, roles,
  // contacts, ranges): the scene-limited walk calls every route with the records' ids, and a
  // customer-wide route (delete a user, a role, a contact) must not meet a row of the same number.
  for (const [table, from] of [['scene', 1000], ['carrier', 2000], ['gateway', 3000], ['sensor', 4000], ['exception_record', 5000], ['notice_log', 6000], ['relay', 7000], ['display', 8000], ['base', 9000]] as const) {
    await t.db.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), ${from})`);
  }
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
  exA = ex!.id;
  await t.db.query(`INSERT INTO notice_log(customer_id, exception_id, type, channel, recipient, content) VALUES ($1, $2, 'alarm', 'email', 'a@b.test', 'AlphaWard alarm')`, [
    a.customerId,
    exA,
  ]);
  // The devices that hang on A's gateway without readings, and a log of its carrier's alarm switch.
  const bus: Record<string, number> = {};
  for (const [table, extra] of [['relay', ''], ['display', ''], ['base', `, 'smart'`]] as const) {
    const tag = table[0].toUpperCase() + table.slice(1);
    const row = await t.db.one<{ id: number }>(
      `INSERT INTO ${table}(customer_id, dev_no, name, gateway_id, carrier_id${extra ? ', type' : ''}) VALUES ($1, $2, $3, $4, $5${extra}) RETURNING id`,
      [a.customerId, `Alpha${tag[0]}1`, `Alpha${tag}`, a.gatewayId, a.carrierId],
    );
    bus[table] = row!.id;
  }
  busIds = Object.values(bus);
  await t.db.query(`INSERT INTO alarm_switch_log(customer_id, carrier_id, carrier_name, alarm_on) VALUES ($1, $2, 'AlphaFridge', false)`, [a.customerId, a.carrierId]);
  // A's own monitor task, and its connection and power exceptions (docs/alarms.md "Connection, power and battery").
  const task = await t.db.one<{ id: number }>(`INSERT INTO monitor_task(customer_id, family, interval_value, interval_unit, status) VALUES ($1, 'zbp', 7, 'minute', 1) RETURNING id`, [a.customerId]);
  await t.db.query(
    `INSERT INTO exception_record(customer_id, carrier_id, sensor_id, gateway_id, type, category, start_ts)
     VALUES ($1, $2, $3, $4, 'offline', 'sensor_connect', now()), ($1, $2, NULL, $4, 'power', 'gateway_blackout', now())`,
    [a.customerId, a.carrierId, a.sensorId, a.gatewayId],
  );
  // A's invalid rule on its carrier, in force (migration 0037): its routes are walked with its id.
  const rule = await t.db.one<{ id: number }>(`INSERT INTO invalid_rule(customer_id, name, kind, weekdays, windows, carrier_ids) VALUES ($1, 'AlphaFridge defrost', 'schedule', '{1}', '[[120,150]]', $2) RETURNING id`, [a.customerId, [a.carrierId]]);
  await t.db.query(`INSERT INTO invalid_rule_version(customer_id, rule_id, kind, weekdays, windows, tz, carrier_ids) VALUES ($1, $2, 'schedule', '{1}', '[[120,150]]', '+08:00', $3)`, [a.customerId, rule!.id, [a.carrierId]]);
  // A's alarm trigger (migration 0041) naming A's contact and bound to A's carrier: its routes are walked with its id.
  const trigger = await t.db.one<{ id: number }>(`INSERT INTO alarm_trigger(customer_id, name, categories, channels) VALUES ($1, 'AlphaTrigger', '{temp_high}', '{email}') RETURNING id`, [a.customerId]);
  await t.db.query(`INSERT INTO alarm_trigger_contact(trigger_id, contact_id, customer_id) VALUES ($1, $2, $3)`, [trigger!.id, a.contactId, a.customerId]);
  await t.db.query(`UPDATE carrier SET trigger_id = $2 WHERE id = $1`, [a.carrierId, trigger!.id]);
  // A's forwarding server, its platform and a setting of its carrier (docs/forwarding.md), far from the other ids.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('forward_binding', 'id'), 11000)`);
  const fwd = await t.db.one<{ id: number }>(`INSERT INTO forward_server(customer_id, type, name, host, port, pub_topic) VALUES ($1, 'mqtt', 'AlphaForward', 'alpha.example', 1883, 'alpha/up') RETURNING id`, [a.customerId]);
  const fwdPlatform = await t.db.one<{ id: number }>(`INSERT INTO forward_platform(customer_id, server_id, code, name, app_id) VALUES ($1, $2, 'ALPHAP', 'AlphaPlatform', 'alpha-app') RETURNING id`, [a.customerId, fwd!.id]);
  const fwdBind = await t.db.one<{ id: number }>(`INSERT INTO forward_binding(customer_id, server_id, platform_id, carrier_id) VALUES ($1, $2, $3, $4) RETURNING id`, [a.customerId, fwd!.id, fwdPlatform!.id, a.carrierId]);
  // A's verification task on its carrier, to be started (deletable by its owner), with A's sensor (migration 0039); its id far from the others.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('verify_task', 'id'), 12000)`);
  const verify = await t.db.one<{ id: number }>(
    `INSERT INTO verify_task(customer_id, carrier_id, name, setpoint, start_time, record_start, end_time, interval_s) VALUES ($1, $2, 'AlphaVerify', 5, now() + interval '1 hour', now() + interval '1 hour', now() + interval '2 hours', 60) RETURNING id`,
    [a.customerId, a.carrierId],
  );
  await t.db.query('INSERT INTO verify_task_device(task_id, sensor_id, customer_id) VALUES ($1, $2, $3)', [verify!.id, a.sensorId, a.customerId]);
  verifyA = verify!.id;
  // A's work order on its sensor (so on A's fridge) with its first step, and a query code of A's sensor (migration 0045); ids far from the others.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('work_order', 'id'), 13000), setval(pg_get_serial_sequence('query_code', 'id'), 14000)`);
  const order = await t.db.one<{ id: number }>(
    `INSERT INTO work_order(customer_id, subject_kind, sensor_id, carrier_id, subject_name, category, description, raised_by_name) VALUES ($1, 'sensor', $2, $3, $4, 'repair', 'AlphaFridge sensor silent', 'alpha') RETURNING id`,
    [a.customerId, a.sensorId, a.carrierId, a.devNo],
  );
  await t.db.query(`INSERT INTO work_order_step(customer_id, work_order_id, action, side, user_id, user_name, status_after) VALUES ($1, $2, 'raise', 'customer', 0, 'alpha', 0)`, [a.customerId, order!.id]);
  const code = await t.db.one<{ id: number }>(
    `INSERT INTO query_code(customer_id, note, start_ts, end_ts, expires_at, created_by) VALUES ($1, 'AlphaCode', now() - interval '1 day', now() + interval '7 days', now() + interval '7 days', 'alpha') RETURNING id`,
    [a.customerId],
  );
  await t.db.query('INSERT INTO query_code_sensor(customer_id, code_id, sensor_id) VALUES ($1, $2, $3)', [a.customerId, code!.id, a.sensorId]);
  workA = [order!.id, code!.id];
  // A's trip on its carrier (transport mode, migration 0046) with a position; its id far from the others.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('trip', 'id'), 15000)`);
  const trip = await t.db.one<{ id: number }>(
    `INSERT INTO trip(customer_id, carrier_id, origin, destination, cargo, start_ts, started_by) VALUES ($1, $2, 'AlphaOrigin', 'AlphaDestination', 'AlphaCargo', now() - interval '1 hour', 'alpha') RETURNING id`,
    [a.customerId, a.carrierId],
  );
  await t.db.query(`INSERT INTO trip_position(customer_id, carrier_id, trip_id, ts, lat, lng, source) VALUES ($1, $2, $3, now() - interval '30 minutes', 31.2, 121.4, $4)`, [a.customerId, a.carrierId, trip!.id, a.gatewaySn]);
  workA.push(trip!.id);
  // A's export file (migration 0050): its download record and its chunks, walked by its id; far from the other ids.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('download_record', 'id'), 16000)`);
  const alphaUser = (await t.db.one<{ id: number }>(`SELECT id FROM app_user WHERE account = 'alpha'`))!.id;
  downloadA = (await storeDownload(t.db, { customerId: a.customerId, userId: alphaUser, kind: 'export', source: 'history', name: 'AlphaFridge history.csv' }, Buffer.from('AlphaFridge,5\r\n'))).id;
  workA.push(downloadA);
  // A's place (migration 0053), whose leaving starts a trip; its id far from the others.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('place', 'id'), 16000)`);
  const place = await t.db.one<{ id: number }>(`INSERT INTO place(customer_id, name, lat, lng, radius_m) VALUES ($1, 'AlphaPlace', 31.2, 121.4, 300) RETURNING id`, [a.customerId]);
  workA.push(place!.id);
  // A's print group of its carrier mailed to its contact, and a report of it with a signature (migration 0051); ids far from the others.
  await t.db.query(`SELECT setval(pg_get_serial_sequence('print_group', 'id'), 17000), setval(pg_get_serial_sequence('report', 'id'), 18000)`);
  const group = await t.db.one<{ id: number }>(`INSERT INTO print_group(customer_id, name, schedule, schedule_from) VALUES ($1, 'AlphaGroup', 'weekly', now()) RETURNING id`, [a.customerId]);
  await t.db.query('INSERT INTO print_group_carrier(customer_id, group_id, carrier_id) VALUES ($1, $2, $3)', [a.customerId, group!.id, a.carrierId]);
  await t.db.query('INSERT INTO print_group_contact(customer_id, group_id, contact_id) VALUES ($1, $2, $3)', [a.customerId, group!.id, a.contactId]);
  const report = await t.db.one<{ id: number }>(
    `INSERT INTO report(customer_id, group_id, group_name, carrier_ids, carrier_names, kind, start_ts, end_ts, tz, status, model, pdf, size, sha256, made_sha256)
     VALUES ($1, $2, 'AlphaGroup', $3, '{AlphaFridge}', 'print', now() - interval '1 day', now(), '+08:00', 'generated', '{}', 'AlphaPdf', 8, sha256('AlphaPdf'), sha256('AlphaPdf')) RETURNING id`,
    [a.customerId, group!.id, [a.carrierId]],
  );
  await t.db.query(`INSERT INTO report_signature(customer_id, report_id, user_id, user_account, user_name, meaning, sha256) VALUES ($1, $2, 0, 'alpha', 'AlphaSigner', 'reviewed', sha256('AlphaPdf'))`, [a.customerId, report!.id]);
  workA.push(group!.id, report!.id);
  aIds = [...new Set([a.sceneId, a.carrierId, a.gatewayId, a.sensorId, a.contactId, a.rangeId, ex!.id, task!.id, rule!.id, verify!.id, trigger!.id, fwd!.id, fwdPlatform!.id, fwdBind!.id, ...workA])];
  aSecretHash = (await t.db.one<{ secret_hash: string }>('SELECT secret_hash FROM gateway WHERE id = $1', [a.gatewayId]))!.secret_hash;
  beta = await t.login('beta');
  viewer = await t.login('alphaviewer');
  proxyOfB = await addProxy('agentb', t.tenants.b.customerId);
  proxyOfA = await addProxy('agenta', a.customerId);
  limitedOwn = await ownScene(a);
  limited = await t.login('limited');
}, SETUP_MS);

/**
 * A second scene of A with its own contact, carrier, gateway and sensor, and a user of A
 * (administrator type, A's Administrator role) limited to it by user_scene.
 */
async function ownScene(of: Records): Promise<Records> {
  const cookie = of.cookie;
  const scene = await call(t, cookie, 'POST', '/service/scene/add', { label: 'WoneWard' });
  const contact = await call(t, cookie, 'POST', '/service/contact/add', { name: 'WoneNurse', phone: '13800000001', groupName: 'day' });
  const carrier = await call(t, cookie, 'POST', '/service/carrier/add', { name: 'WoneFridge', type: 2, sceneId: scene.id, tempMin: 2, tempMax: 8, contactIds: [contact.id] });
  const gatewaySn = 'C10000000000';
  const gw = await call(t, cookie, 'POST', '/service/gateway/add', { sn: gatewaySn, name: 'WoneGateway', carrierId: carrier.id });
  const devNo = 'WoneT1';
  const sensor = await call(t, cookie, 'POST', '/service/sensor/add', { devNo, type: 'zigbee_th', gatewayId: gw.id, carrierId: carrier.id });
  const user = await t.addUser(of.customerId, 'limited', 'Administrator', 1);
  await t.db.query('INSERT INTO user_scene(user_id, scene_id) VALUES ($1, $2)', [user, scene.id]);
  return {
    ...of, sceneId: scene.id, sceneCode: (await call(t, cookie, 'GET', `/service/scene/detail?id=${scene.id}`)).code, contactId: contact.id,
    carrierId: carrier.id, gatewayId: gw.id, gatewaySn, secret: gw.secret, sensorId: sensor.id, devNo,
  };
}
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

/**
 * The rows bound to A's seeded scene: its scene, carrier, gateway, sensor and exception, and
 * every row of a tenant table that links to one of them (a column scene_id, parent_id of a scene,
 * carrier_id, gateway_id, sensor_id, exception_id, or one ending so: origin_carrier_id). Found in
 * the catalogue, so a table added later with such a link is watched without editing this file.
 */
async function snapshotOfLimit(): Promise<Record<string, string>> {
  const [relay, display, base] = busIds;
  const self: Record<string, number> = { scene: a.sceneId, carrier: a.carrierId, gateway: a.gatewayId, sensor: a.sensorId, exception_record: exA, relay, display, base };
  const links: [RegExp, number][] = [
    [/(^|_)scene_id$/, a.sceneId], [/(^|_)carrier_id$/, a.carrierId], [/(^|_)gateway_id$/, a.gatewayId], [/(^|_)sensor_id$/, a.sensorId], [/(^|_)exception_id$/, exA],
    [/(^|_)relay_id$/, relay],
  ];
  const cols = await t.db.query<{ relname: string; attname: string }>(
    `SELECT c.relname, att.attname FROM pg_class c JOIN pg_attribute att ON att.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE att.attnum > 0 AND NOT att.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = current_schema()
        AND EXISTS (SELECT 1 FROM pg_attribute t WHERE t.attrelid = c.oid AND t.attname = 'customer_id' AND NOT t.attisdropped)
        AND c.relname NOT IN ('user_session', 'sys_log')
      ORDER BY 1, 2`,
  );
  const conds = new Map<string, string[]>();
  const add = (table: string, cond: string) => conds.set(table, [...(conds.get(table) ?? []), cond]);
  for (const { relname, attname } of cols) {
    if (attname === 'id' && relname in self) add(relname, `t.id = ${self[relname]}`);
    if (attname === 'parent_id' && relname === 'scene') add(relname, `t.parent_id = ${a.sceneId}`);
    for (const [re, id] of links) if (re.test(attname)) add(relname, `t."${attname}" = ${id}`);
  }
  const parts = [...conds].map(([table, c]) => `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "${table}" t WHERE t.customer_id = $1 AND (${c.join(' OR ')})) AS "${table}"`);
  return (await t.db.one<Record<string, string>>(`SELECT ${parts.join(', ')}`, [a.customerId]))!;
}

/** The scene-limited walk: A's seeded records by their ids, the limited user's own contact where a contact is named. */
const outsideLimit = () => ({
  rec: { ...a, contactId: limitedOwn.contactId },
  ids: [a.sceneId, a.carrierId, a.gatewayId, a.sensorId, exA, ...busIds, verifyA, ...workA],
  // Not 'Alpha' (the user's own customer is Alpha Hospital) nor A's contact (contacts are not limited).
  markers: () => ['AlphaWard', 'AlphaFridge', 'AlphaGateway', 'AlphaRelay', 'AlphaDisplay', 'AlphaBase', a.devNo, a.gatewaySn, a.sceneCode, a.secret, aSecretHash],
  snapshot: snapshotOfLimit,
});

// ---- deriving a call from a route -------------------------------------------------------

/** The records' identifiers by parameter name (A's unless told); `id`-like names are tried with each record id. */
const known = (id: number, rec: Records = a) => knownParams(rec, id, true);
/** Body fields B might fill honestly, so that writes get past validation and meet the scope checks. */
const bodyDefaults: Record<string, unknown> = {
  name: 'Intruder', label: 'Intruder', devNo: 'INTRUDER9', sn: 'FFFFFFFFFFF0', phone: '13900000009', email: 'x@intruder.cn', tz: '+08:00',
  account: 'intruder', password: 'intruder1',
};

function sample(s: any, key: string, id: number, rec: Records): unknown {
  const k = known(id, rec);
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
    case 'union': return sample(d.options[0], key, id, rec);
    default: return plainSample(d);
  }
}

function fill(schema: unknown, id: number, asQuery: boolean, rec: Records): Record<string, unknown> {
  const shape = shapeOf(schema);
  const k = known(id, rec);
  if (!shape) return asQuery ? Object.fromEntries(Object.entries(k).filter(([, v]) => !Array.isArray(v))) : {};
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(shape)) {
    const v = asQuery ? (key in k ? sample(s, key, id, rec) : undefined) : sample(s, key, id, rec);
    if (v !== undefined) out[key] = Array.isArray(v) && asQuery ? v.join(',') : v;
  }
  return out;
}

/** One injectable call per id (A's record ids unless told) when the route takes an id; one call otherwise. */
function callsFor(r: Walked, rec: Records = a, ids: number[] = aIds) {
  return (takesId(r) ? ids : [ids[0]]).map((id) => {
    const path = pathFor(r, known(id, rec), id);
    const query = queryOf(fill(r.schema?.querystring, id, true, rec));
    const payload = r.method === 'GET' || r.method === 'DELETE' ? undefined : fill(r.schema?.body, id, false, rec);
    return { method: r.method, url: query ? `${path}?${query}` : path, payload };
  });
}

const walkable = () => routes.filter((r) => r.url.startsWith('/service/') && !r.config.stream);

// ---- the walks --------------------------------------------------------------------------

describe('tenant isolation over every route', () => {
  it('records the routes of every module', () => {
    const urls = routes.map((r) => r.url);
    for (const u of ['/service/carrier/page', '/service/gateway/add', '/service/sensor/lst/:type', '/service/share/history', '/service/share/tree', '/service/live/stream', '/service/forwardSet/page', '/service/forwardBind/del', '/service/detailData/export', '/service/printGroup/list', '/service/printGroup/delete', '/service/printer/info', '/service/report/sign']) {
      expect(urls).toContain(u);
    }
  });

  interface Walk {
    /** The records whose identifiers fill the calls, and the ids an id-taking route is called with. */
    rec: Records;
    ids: number[];
    /** Strings none of the answers may hold. */
    markers: () => string[];
    /** Fingerprints of the rows no call may change. */
    snapshot: () => Promise<Record<string, string>>;
  }
  const foreign = (): Walk => ({ rec: a, ids: aIds, markers, snapshot: snapshotOfA });

  /** Walks every route as the holder of cookie: no answer holds the walk's markers, no call changes its rows, the session survives. */
  async function walkAs(cookie: string, w: Walk = foreign()) {
    const before = await w.snapshot();
    const failures: string[] = [];
    for (const r of walkable()) {
      for (const c of callsFor(r, w.rec, w.ids)) {
        const res = await t.app.inject({ method: c.method as any, url: c.url, payload: c.payload as any, headers: r.config.public ? {} : { cookie } });
        const text = res.body;
        const leaked = w.markers().filter((m) => text.includes(m));
        if (leaked.length) failures.push(`${c.method} ${c.url} leaked ${leaked.join(', ')}: ${text.slice(0, 300)}`);
        if (res.statusCode >= 500) failures.push(`${c.method} ${c.url} → ${res.statusCode} ${text.slice(0, 200)}`);
        const after = await w.snapshot();
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

  it("a user of A limited to another scene sees and changes nothing of A's records outside its limit", () => walkAs(limited, outsideLimit()), WALK_MS);

  it("the scene-limited user does see its own scene's carrier and not the other (positive control)", async () => {
    const rows = (await t.app.inject({ method: 'GET', url: '/service/carrier/page?iDisplayLength=100', headers: { cookie: limited } })).json().result.rows;
    expect(rows.map((r: { id: number }) => r.id)).toEqual([limitedOwn.carrierId]);
  });

  // The statistics (issue 29) over a range that holds A's readings: the walk's sampled range may hold none.
  // It ends on a 5-minute boundary so that the readings are answered from the rollups, not raw.
  it("A's carrier statistics are 404 for B, B's proxy and the scene-limited user, and left out of their lists; A sees them", async () => {
    const q = `startTime=${Date.now() - 3_600_000}&endTime=${Math.floor(Date.now() / 300_000) * 300_000}`;
    for (const cookie of [beta, proxyOfB, limited]) {
      expect((await t.app.inject({ method: 'GET', url: `/service/count/statistic?carrierId=${a.carrierId}&${q}`, headers: { cookie } })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/service/count/statistic/list?carrierIds=${a.carrierId}&${q}`, headers: { cookie } })).json().result).toEqual([]);
    }
    const own = (await t.app.inject({ method: 'GET', url: `/service/count/statistic?carrierId=${a.carrierId}&${q}`, headers: { cookie: a.cookie } })).json().result;
    expect(own.summary.temp.readings).toBeGreaterThan(0);
  });

  // The detail-data export (issue 29) over the walk's range, which holds A's seeded readings: the
  // walk's calls of it are not vacuous, since A's own file holds the carrier's rows.
  it("A's detail-data export is 404 for B, B's proxy and the scene-limited user; A's own file holds its rows", async () => {
    const k = knownParams(a, a.carrierId);
    const url = `/service/detailData/export?carrierIds=${a.carrierId}&start=${k.start}&end=${Date.now()}`;
    for (const cookie of [beta, proxyOfB, limited]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('AlphaFridge');
    }
    const own = await t.app.inject({ method: 'GET', url, headers: { cookie: a.cookie } });
    expect(own.body.split('\r\n').filter((l) => l.includes(',AlphaFridge,'))).toHaveLength(10);
  });

  // The signed handling routes ask for a signature the walk cannot fill (a nested object): here
  // they are called signed for real, as B's administrator and as the scene-limited user, each
  // with its own right password, so that only the scope stands between them and A's records.
  it("signed handling of A's exceptions by B, or outside the scene limit, is 404 and changes nothing; a bulk with one foreign id changes nothing", async () => {
    const exB = (await t.db.one<{ id: number }>(
      `INSERT INTO exception_record(customer_id, type, category, status, ongoing, start_ts, end_ts) VALUES ($1, 'data', 'temp_high', 1, false, now() - interval '1 hour', now()) RETURNING id`,
      [t.tenants.b.customerId],
    ))!.id;
    const before = await snapshotOfA();
    const beforeLimit = await snapshotOfLimit();
    const optionsOf = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/service/exReason/options', headers: { cookie } })).json().result as { id: number }[];
    for (const [cookie, account, ownEx] of [[beta, 'beta', exB], [limited, 'limited', null]] as const) {
      const sign = { account, password: PASSWORD };
      const reasonId = (await optionsOf(cookie))[0].id;
      const handling = { reasonId, measures: 'Intruder', judgement: 'confirmed', comment: 'Intruder', sign };
      const calls: [string, string, unknown][] = [
        ['PUT', '/service/exception/handle', { ids: [exA], ...handling }],
        ['PUT', `/service/exception/close?ids=${exA}`, { sign }],
        ['POST', '/service/exception/comment', { id: exA, comment: 'Intruder', sign }],
        ['PUT', '/service/exception/correct', { id: exA, ...handling }],
        ['GET', `/service/exception/link?id=${exA}`, undefined],
        ...(ownEx ? ([['PUT', `/service/exception/close?ids=${ownEx},${exA}`, { sign }]] as [string, string, unknown][]) : []),
      ];
      for (const [method, url, payload] of calls) {
        const res = await t.app.inject({ method: method as any, url, payload: payload as any, headers: { cookie } });
        expect(res.statusCode, `${account} ${method} ${url}: ${res.body}`).toBe(404);
      }
    }
    expect(await snapshotOfA()).toEqual(before);
    expect(await snapshotOfLimit()).toEqual(beforeLimit);
    expect((await t.db.one<{ status: number }>('SELECT status FROM exception_record WHERE id = $1', [exB]))!.status).toBe(1);
    expect(await t.db.query('SELECT id FROM exception_handling WHERE exception_id = ANY($1)', [[exA, exB]])).toEqual([]);
    // A's reasons are not B's to read.
    expect((await t.app.inject({ method: 'GET', url: `/service/exReason/options?customerId=${a.customerId}`, headers: { cookie: beta } })).statusCode).toBe(404);
  });

  // The download centre (issue 30): A's file is reached only through a record of A's scope.
  it("A's download record and its file are 404 for B, B's proxy and the scene-limited user, and out of their lists; A downloads it", async () => {
    for (const cookie of [beta, proxyOfB, limited]) {
      for (const url of [`/service/download/record/download?id=${downloadA}`, `/service/download/record/detail?id=${downloadA}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('AlphaFridge');
      }
      // Their own exports may be there (the walk asked for an export of their monitoring points, which are theirs): never A's.
      const rows: { id: number; name: string }[] = (await t.app.inject({ method: 'GET', url: '/service/download/record/page?iDisplayLength=100', headers: { cookie } })).json().result.rows;
      expect(rows.map((r) => r.id)).not.toContain(downloadA);
      expect(JSON.stringify(rows)).not.toContain('AlphaFridge');
    }
    const own = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${downloadA}`, headers: { cookie: a.cookie } });
    expect(own.body).toBe('AlphaFridge,5\r\n');
  });

  it('an /exDetail token shows its one exception: B\'s token nothing of A, a token made up for A nothing at all', async () => {
    const { signExceptionLink } = await import('../src/alarm/exceptionLink.js');
    const exB = (await t.db.one<{ id: number }>(
      `INSERT INTO exception_record(customer_id, type, category, start_ts) VALUES ($1, 'data', 'temp_low', now()) RETURNING id`,
      [t.tenants.b.customerId],
    ))!.id;
    const shared = (token: string) => t.app.inject({ method: 'GET', url: `/service/exception/shared?token=${encodeURIComponent(token)}` });
    const ofB = await signExceptionLink(t.db, exB, t.tenants.b.customerId);
    const own = await shared(ofB.token);
    expect(own.json().result.id).toBe(exB);
    expect(markers().filter((m) => own.body.includes(m))).toEqual([]);
    const [, , exp, mac] = ofB.token.split('.');
    for (const forged of [`${exA}.${t.tenants.b.customerId}.${exp}.${mac}`, `${exA}.${a.customerId}.${exp}.${mac}`]) {
      const res = await shared(forged);
      expect(res.statusCode).toBe(401);
      expect(markers().filter((m) => res.body.includes(m))).toEqual([]);
    }
  });

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

  it("home settings: B and the scene-limited user cannot put A's sensor outside their reach on their home; A can (positive control)", async () => {
    const put = (cookie: string) =>
      t.app.inject({ method: 'PUT', url: '/service/mine/homeSetting', headers: { cookie }, payload: { style: 'grid', widgets: ['sensorRecords'], sensors: [a.devNo] } });
    for (const cookie of [beta, proxyOfB, limited]) {
      const r = await put(cookie);
      expect(r.json().state.code).not.toBe(200000);
      const back = await t.app.inject({ method: 'GET', url: '/service/mine/homeSetting', headers: { cookie } });
      expect(back.body).not.toContain(a.devNo);
    }
    expect((await put(a.cookie)).json().result.sensors).toEqual([expect.objectContaining({ devNo: a.devNo })]);
  });

  it("streams forward nothing of A's records outside the scene-limited user's limit", async () => {
    const streams = routes.filter((r) => r.config.stream);
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    for (const r of streams) {
      let text = '';
      const req = http.get(`http://127.0.0.1:${port}${r.url}`, { headers: { cookie: limited } });
      await new Promise<void>((resolve) => req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.once('data', () => resolve());
      }));
      const customerId = a.customerId;
      t.bus.emit('reading', { customerId, sensorId: a.sensorId, devNo: a.devNo, carrierId: a.carrierId, ts: Date.now(), temp: 5 });
      t.bus.emit('exception', { customerId, exceptionId: exA, carrierId: a.carrierId, sensorId: a.sensorId, category: 'outside_cat', ongoing: true });
      t.bus.emit('deviceStatus', { customerId, kind: 'gateway', id: a.gatewayId, status: 0 });
      t.bus.emit('deviceStatus', { customerId, kind: 'sensor', id: a.sensorId, status: 0 });
      // The user's own sensor is the fence: once its event arrived, the others (emitted before) would have too.
      t.bus.emit('deviceStatus', { customerId, kind: 'sensor', id: limitedOwn.sensorId, status: 1 });
      for (let i = 0; i < 300 && !text.includes(`"id":${limitedOwn.sensorId}`); i++) await new Promise((res) => setTimeout(res, 10));
      req.destroy();
      expect(text).toContain(`"id":${limitedOwn.sensorId}`);
      expect(outsideLimit().markers().filter((m) => text.includes(m))).toEqual([]);
      expect(text).not.toContain('outside_cat');
      expect(text).not.toContain(`"id":${a.sensorId}`);
      expect(text).not.toContain(`"id":${a.gatewayId}`);
    }
  });
});
