import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { forwardingKey, open } from './secret.js';

/** Forwarding servers, platforms and settings (spec §3, §5, §7 forwardSet/*, §8): the rules, the secrets, who sees what. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const mqtt = { type: 'mqtt', name: 'Province', host: 'broker.example.cn', port: 1883, clientId: 'cw-1', username: 'u', password: 'p@ss', qos: 1, timeoutS: 10, heartbeatS: 30, pubTopic: 'cw/up' };
const http = { type: 'http', name: 'CDC', host: 'cdc.example.cn', port: 443, tls: true, path: '/api/readings' };
const servers = (cookie: string) => call(t, cookie, 'GET', '/service/forwardSet/page?iDisplayLength=100');

describe('forwarding servers', () => {
  it('stores the password sealed, never answers it, and keeps it on an update without one', async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/forwardSet/add', mqtt);
    const detail = await call(t, a.cookie, 'GET', `/service/forwardSet/detail?id=${id}`);
    expect(detail).toMatchObject({ name: 'Province', hasPassword: true, status: { connected: false, backlog: 0, lastError: '' } });
    expect(JSON.stringify(detail)).not.toContain('p@ss');
    const stored = (await t.db.one<{ password_enc: string }>('SELECT password_enc FROM forward_server WHERE id = $1', [id]))!.password_enc;
    expect(stored).not.toContain('p@ss');
    expect(open(await forwardingKey(t.db), stored)).toBe('p@ss');
    await call(t, a.cookie, 'PUT', '/service/forwardSet/update', { ...mqtt, id, password: '', qos: 2 });
    const after = (await t.db.one<{ password_enc: string; qos: number }>('SELECT password_enc, qos FROM forward_server WHERE id = $1', [id]))!;
    expect(after.qos).toBe(2);
    expect(open(await forwardingKey(t.db), after.password_enc)).toBe('p@ss');
    const log = await t.db.query<{ params: string }>(`SELECT params::text FROM sys_log WHERE module = 'forwarding' AND customer_id = $1`, [a.customerId]);
    expect(log.length).toBe(2);
    expect(log.map((l) => l.params).join()).not.toContain('p@ss');
    await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${id}`);
  });

  it('the key from FORWARD_SECRET_KEY differs from the derived one: a secret sealed under one is not opened by the other', async () => {
    const derived = await forwardingKey(t.db, {});
    const fromEnv = await forwardingKey(t.db, { FORWARD_SECRET_KEY: 'a key kept outside the database' });
    expect(fromEnv.equals(derived)).toBe(false);
    const { seal } = await import('./secret.js');
    expect(() => open(fromEnv, seal(derived, 'x'))).toThrow();
  });

  it.each([
    ['port 70000', { port: 70000 }, 'port', 'The port is a whole number from 1 to 65535'],
    ['port 0', { port: 0 }, 'port', 'The port is a whole number from 1 to 65535'],
    ['a 65-character topic', { pubTopic: 'x'.repeat(65) }, 'pubTopic', 'A topic has at most 64 characters'],
    ['a 65-character subscribe topic', { subTopic: 's'.repeat(65) }, 'subTopic', 'A topic has at most 64 characters'],
    ['a wildcard topic', { pubTopic: 'cw/#' }, 'pubTopic', 'A topic holds no spaces and no wildcards (+ or #)'],
    ['timeout 31', { timeoutS: 31 }, 'timeoutS', 'The timeout is a whole number of seconds from 0 to 30'],
    ['heartbeat 61', { heartbeatS: 61 }, 'heartbeatS', 'The heartbeat is a whole number of seconds from 0 to 60'],
    ['QoS 3', { qos: 3 }, 'qos', 'Choose QoS 0 (at most once), 1 (at least once) or 2 (exactly once)'],
    ['a host with spaces', { host: 'a b' }, 'host', 'Enter a host name or an IP address'],
    ['no publish topic on MQTT', { pubTopic: '' }, 'pubTopic', 'An MQTT server needs a publish topic'],
  ])('refuses %s under its field (§5)', async (_what, body, field, msg) => {
    const r = await req(a.cookie, 'POST', '/service/forwardSet/add', { ...mqtt, ...body });
    expect(r.status).toBe(400);
    expect(r.result.errors).toEqual({ [field]: msg });
  });

  it('the limits themselves pass: port 65535, a 64-character topic, timeout 30, heartbeat 60', async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/forwardSet/add', { ...mqtt, name: 'Edge', port: 65535, pubTopic: 'x'.repeat(64), timeoutS: 30, heartbeatS: 60 });
    expect(await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${id}`)).toEqual({ deleted: 1 });
  });

  it('§8: an existing name, host and port (MQTT) or URI (HTTP) is refused; another port or path is not', async () => {
    const one = await call(t, a.cookie, 'POST', '/service/forwardSet/add', mqtt);
    const web = await call(t, a.cookie, 'POST', '/service/forwardSet/add', http);
    expect((await req(a.cookie, 'POST', '/service/forwardSet/add', { ...mqtt, name: 'Other', host: 'BROKER.example.cn' })).state).toMatchObject({ msg: 'A server with this host and port already exists' });
    expect((await req(a.cookie, 'POST', '/service/forwardSet/add', { ...mqtt, port: 8883 })).state).toMatchObject({ code: 418, msg: 'A forwarding server with this name already exists' });
    expect((await req(a.cookie, 'POST', '/service/forwardSet/add', { ...http, name: 'CDC 2' })).state).toMatchObject({ msg: 'A server with this URI already exists' });
    const other = await call(t, a.cookie, 'POST', '/service/forwardSet/add', { ...http, name: 'CDC 2', path: '/api/v2' });
    // Another customer may use the same remote.
    const theirs = await call(t, b.cookie, 'POST', '/service/forwardSet/add', mqtt);
    await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${one.id},${web.id},${other.id}`);
    await call(t, b.cookie, 'DELETE', `/service/forwardSet/del?ids=${theirs.id}`);
  });
});

describe('platforms and forward settings', () => {
  it('binds a carrier through a platform; a server in use is not deleted; the platform key is sealed', async () => {
    const server = await call(t, a.cookie, 'POST', '/service/forwardSet/add', http);
    const platform = await call(t, a.cookie, 'POST', '/service/forwardPlatform/add', { serverId: server.id, code: 'ZJCDC', name: 'Zhejiang CDC', vendorCode: 'CW', appId: 'app-1', key: 'k3y' });
    expect(await call(t, a.cookie, 'GET', `/service/forwardPlatform/detail?id=${platform.id}`)).toMatchObject({ serverName: 'CDC', hasKey: true, appId: 'app-1' });
    expect((await req(a.cookie, 'POST', '/service/forwardPlatform/add', { serverId: server.id, code: 'OTHER', name: 'x', appId: 'app-1' })).state.msg).toBe('A platform with this app id already exists');
    const bind = await call(t, a.cookie, 'POST', '/service/forwardBind/add', { platformId: platform.id, carrierId: a.carrierId, exceptions: true });
    const listed = await call(t, a.cookie, 'GET', '/service/forwardBind/page?iDisplayLength=15');
    expect(listed.rows).toEqual([expect.objectContaining({ id: bind.id, serverId: server.id, platformName: 'Zhejiang CDC', carrierId: a.carrierId, exceptions: true, enabled: true })]);
    expect((await req(a.cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId: a.carrierId })).state.msg).toBe('This carrier or sensor is already forwarded to that server');
    expect((await req(a.cookie, 'DELETE', `/service/forwardSet/del?ids=${server.id}`)).state.msg).toBe('It cannot be deleted: a platform or a forward setting uses it');
    expect((await req(a.cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, platformId: platform.id, carrierId: a.carrierId })).result.errors).toEqual({ serverId: 'Choose one server or one platform' });
    expect((await servers(a.cookie)).rows[0]).toMatchObject({ bindings: 1 });
    await call(t, a.cookie, 'PUT', '/service/forwardBind/update', { id: bind.id, exceptions: false, enabled: false });
    await call(t, a.cookie, 'DELETE', `/service/forwardBind/del?ids=${bind.id}`);
    await call(t, a.cookie, 'DELETE', `/service/forwardPlatform/del?ids=${platform.id}`);
    await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${server.id}`);
  });

  it("another customer's servers, platforms and settings are neither seen nor used; its carriers are not bound", async () => {
    const server = await call(t, a.cookie, 'POST', '/service/forwardSet/add', mqtt);
    const bind = await call(t, a.cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, sensorId: a.sensorId });
    const ofA = () => t.db.query('SELECT s.*, b.* FROM forward_server s LEFT JOIN forward_binding b ON b.server_id = s.id WHERE s.customer_id = $1 ORDER BY s.id, b.id', [a.customerId]);
    const before = await ofA();
    expect((await servers(b.cookie)).rows).toEqual([]);
    expect((await req(b.cookie, 'GET', `/service/forwardSet/detail?id=${server.id}`)).status).toBe(404);
    expect((await req(b.cookie, 'PUT', '/service/forwardSet/update', { ...mqtt, id: server.id, port: 1 })).status).toBe(404);
    expect((await req(b.cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId: b.carrierId })).status).toBe(404);
    const theirs = await call(t, b.cookie, 'POST', '/service/forwardSet/add', mqtt);
    expect((await req(b.cookie, 'POST', '/service/forwardBind/add', { serverId: theirs.id, carrierId: a.carrierId })).status).toBe(404);
    expect((await req(b.cookie, 'DELETE', `/service/forwardBind/del?ids=${bind.id}`)).status).toBe(404);
    expect((await call(t, b.cookie, 'GET', '/service/share/forward')).map((x: { id: number }) => x.id)).toEqual([theirs.id]);
    expect(await ofA()).toEqual(before);
    await call(t, b.cookie, 'DELETE', `/service/forwardSet/del?ids=${theirs.id}`);
    await call(t, a.cookie, 'DELETE', `/service/forwardBind/del?ids=${bind.id}`);
    await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${server.id}`);
  });

  it('scene limit: a limited user binds and sees only carriers within its limit, and does not change servers', async () => {
    const server = await call(t, a.cookie, 'POST', '/service/forwardSet/add', mqtt);
    const outside = await call(t, a.cookie, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId: a.carrierId });
    const scene = await call(t, a.cookie, 'POST', '/service/scene/add', { label: 'Limited ward' });
    const carrier = await call(t, a.cookie, 'POST', '/service/carrier/add', { name: 'Limited fridge', type: 2, sceneId: scene.id, tempMin: 2, tempMax: 8 });
    const userId = await t.addUser(a.customerId, 'fwlimited', 'Administrator', 1);
    await t.db.query('INSERT INTO user_scene (user_id, scene_id) VALUES ($1, $2)', [userId, scene.id]);
    const limited = await t.login('fwlimited');
    expect((await call(t, limited, 'GET', '/service/forwardBind/page?iDisplayLength=15')).rows).toEqual([]);
    expect((await req(limited, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId: a.carrierId })).status).toBe(404);
    expect((await req(limited, 'DELETE', `/service/forwardBind/del?ids=${outside.id}`)).status).toBe(404);
    const own = await call(t, limited, 'POST', '/service/forwardBind/add', { serverId: server.id, carrierId: carrier.id });
    expect((await call(t, limited, 'GET', '/service/forwardBind/page?iDisplayLength=15')).rows.map((r: { id: number }) => r.id)).toEqual([own.id]);
    expect((await req(limited, 'PUT', '/service/forwardSet/update', { ...mqtt, id: server.id })).state.code).toBe(500102);
    expect((await req(limited, 'POST', '/service/forwardSet/add', { ...mqtt, name: 'Mine' })).state.code).toBe(500102);
    await call(t, a.cookie, 'DELETE', `/service/forwardBind/del?ids=${own.id},${outside.id}`);
    await call(t, a.cookie, 'DELETE', `/service/forwardSet/del?ids=${server.id}`);
  });
});
