import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setup, type TestCtx } from '../../../test/helper.js';
import { resolveSession } from './session.js';
import { SessionCache } from './session-cache.js';
import type { Scope } from './scope.js';

describe('SessionCache', () => {
  it('keeps a row read in the current epoch and forgets every row on a change', () => {
    const c = new SessionCache<string>({ maxAgeMs: 60_000, maxEntries: 10 });
    c.keep('a', 'row a', c.now);
    expect(c.get('a')).toBe('row a');
    c.forget();
    expect(c.get('a')).toBeUndefined();
  });

  it('does not keep a row whose reading overlapped a change: it may predate the change', () => {
    const c = new SessionCache<string>({ maxAgeMs: 60_000, maxEntries: 10 });
    const readAt = c.now;
    c.forget(); // the notice came while the row was being read
    c.keep('a', 'row a', readAt);
    expect(c.get('a')).toBeUndefined();
  });

  it('drops a row past its maximum age, and starts afresh when full', async () => {
    const c = new SessionCache<string>({ maxAgeMs: 20, maxEntries: 2 });
    c.keep('a', 'row a', c.now);
    await new Promise((r) => setTimeout(r, 40));
    expect(c.get('a')).toBeUndefined();
    c.keep('a', 'row a', c.now);
    c.keep('b', 'row b', c.now);
    c.keep('c', 'row c', c.now);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, undefined, 'row c']);
  });
});

/*
 * On PostgreSQL a resolved session is kept in memory; migration 0029's triggers make every
 * change to what it was read from forget it, so the change holds from the very next request.
 */
describe.skipIf(!process.env.DATABASE_URL)('resolved sessions on PostgreSQL', () => {
  let t: TestCtx;
  let uid: number;
  let token: string;
  let customerId: number;
  let roleId: number;
  const resolve = () => resolveSession(t.db, token);

  beforeAll(async () => {
    t = await setup();
    customerId = t.tenants.a.customerId;
    uid = await t.addUser(customerId, 'cached', 'Operator');
    token = (await t.login('cached')).split('=')[1];
    roleId = (await t.db.one<{ id: number }>(`SELECT role_id AS id FROM user_role WHERE user_id = $1`, [uid]))!.id;
  }, 180_000);
  afterAll(() => t?.close());

  it('reads a session once: a change made behind the triggers is not seen, one made as the console makes it is seen at once', async () => {
    expect((await resolve())!.name).toBe('cached');
    // As nothing in the console does (replica mode skips triggers): the cached row stays.
    await t.db.tx(async (q) => {
      await q.exec(`SET LOCAL session_replication_role = replica`);
      await q.query(`UPDATE app_user SET name = 'hidden' WHERE id = $1`, [uid]);
    });
    expect((await resolve())!.name).toBe('cached');
    await t.db.query(`UPDATE app_user SET name = 'seen' WHERE id = $1`, [uid]);
    expect((await resolve())!.name).toBe('seen');
  });

  const scenes = async () => (await resolve())!.sceneIds;
  /** A statement on the user (0) and its role (1), resolved when it runs. */
  const sql = (text: string, ...params: (0 | 1)[]) => () => t.db.query(text, params.map((p) => (p === 0 ? uid : roleId)));
  const cases: { what: string; change: () => Promise<unknown>; then: (s: Scope | undefined) => void; undo: () => Promise<unknown> }[] = [
    { what: 'the user disabled', change: sql(`UPDATE app_user SET status = 0 WHERE id = $1`, 0), then: (s) => expect(s).toBeUndefined(), undo: sql(`UPDATE app_user SET status = 1 WHERE id = $1`, 0) },
    { what: 'the session revoked', change: sql(`UPDATE user_session SET revoked = 'conflict' WHERE user_id = $1`, 0), then: (s) => expect(s).toBeUndefined(), undo: sql(`UPDATE user_session SET revoked = NULL WHERE user_id = $1`, 0) },
    { what: 'the user made an administrator', change: sql(`UPDATE app_user SET is_admin = true WHERE id = $1`, 0), then: (s) => expect(s!.isAdmin).toBe(true), undo: sql(`UPDATE app_user SET is_admin = false WHERE id = $1`, 0) },
    { what: 'the role taken from the user', change: sql(`DELETE FROM user_role WHERE user_id = $1`, 0), then: (s) => expect(s!.funcs.size).toBe(0), undo: sql(`INSERT INTO user_role (user_id, role_id) VALUES ($1, $2)`, 0, 1) },
    { what: 'the role cancelled', change: sql(`UPDATE role SET status = 0 WHERE id = $1`, 1), then: (s) => expect(s!.funcs.size).toBe(0), undo: sql(`UPDATE role SET status = 1 WHERE id = $1`, 1) },
    { what: 'a function taken from the role', change: sql(`DELETE FROM role_func WHERE role_id = $1 AND func = 'viewCarrier'`, 1), then: (s) => expect(s!.funcs.has('viewCarrier')).toBe(false), undo: sql(`INSERT INTO role_func (role_id, func) VALUES ($1, 'viewCarrier')`, 1) },
  ];
  for (const c of cases) {
    it(`sees ${c.what} on the next resolution, and its undoing too`, async () => {
      const before = await resolve();
      expect(before?.funcs.has('viewCarrier')).toBe(true);
      await c.change();
      c.then(await resolve());
      await c.undo();
      expect((await resolve())?.funcs).toEqual(before!.funcs);
    });
  }

  it('sees the customer cancelled, and a scene limit with the scenes added below it', async () => {
    await resolve();
    await t.db.query(`UPDATE customer SET status = 0 WHERE id = $1`, [customerId]);
    expect(await resolve()).toBeUndefined();
    await t.db.query(`UPDATE customer SET status = 1 WHERE id = $1`, [customerId]);
    expect(await scenes()).toBeNull();
    const top = (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label) VALUES ($1, 'CACHE-TOP', 'Top') RETURNING id`, [customerId]))!.id;
    await t.db.query(`INSERT INTO user_scene (user_id, scene_id) VALUES ($1, $2)`, [uid, top]);
    expect(await scenes()).toEqual([top]);
    const below = (await t.db.one<{ id: number }>(`INSERT INTO scene (customer_id, code, label, parent_id) VALUES ($1, 'CACHE-BELOW', 'Below', $2) RETURNING id`, [customerId, top]))!.id;
    expect(await scenes()).toEqual([top, below]);
    await t.db.query(`UPDATE scene SET parent_id = NULL WHERE id = $1`, [below]);
    expect(await scenes()).toEqual([top]);
    await t.db.query(`DELETE FROM user_scene WHERE user_id = $1`, [uid]);
    expect(await scenes()).toBeNull();
  });

  it('hears a change committed on another connection (another replica, an operator in psql) within moments', async () => {
    expect((await resolve())!.name).toBe('seen');
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query(`UPDATE app_user SET name = 'elsewhere' WHERE id = $1`, [uid]);
    } finally {
      await other.end();
    }
    const until = Date.now() + 2_000;
    let name = (await resolve())!.name;
    while (name !== 'elsewhere' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
      name = (await resolve())!.name;
    }
    expect(name).toBe('elsewhere');
  });

  it('forgets when the pool has no connection left to hear with (idle, or the server lost them)', async () => {
    expect((await resolve())!.name).toBe('elsewhere');
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      // Every connection of the console's pool ends (as after an idle spell or a failover) …
      await other.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      await new Promise((r) => setTimeout(r, 300));
      // … and a change is committed while none of them listens.
      await other.query(`UPDATE app_user SET name = 'unheard' WHERE id = $1`, [uid]);
    } finally {
      await other.end();
    }
    expect((await resolve())!.name).toBe('unheard');
  });
});
