import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from './client.js';
import { system } from './kysely.js';
import { scoped } from './scoped.js';
import { TenantScopeError } from './tenant.js';

/*
 * The scope is structural: through scoped(q, scope) every tenant table of a statement is
 * filtered to the caller's customers, whatever the statement forgot; through system(q) a
 * tenant table cannot be reached at all.
 */

let fresh: Awaited<ReturnType<typeof freshDb>>;
let db: Db;
const ids = { a: 0, b: 0, sceneA: 0, sceneB: 0, carrierA: 0, carrierB: 0 };
const asA = { customerIds: [0] };
const platform = { customerIds: null };

beforeAll(async () => {
  fresh = await freshDb();
  db = fresh.db;
  const one = async (text: string, params: unknown[]) => (await db.query<{ id: number }>(text, params))[0].id;
  ids.a = await one(`INSERT INTO customer(name, code) VALUES ('Tenant A', 'TA') RETURNING id`, []);
  ids.b = await one(`INSERT INTO customer(name, code) VALUES ('Tenant B', 'TB') RETURNING id`, []);
  ids.sceneA = await one(`INSERT INTO scene(customer_id, code, label) VALUES ($1, 'SA', 'Scene A') RETURNING id`, [ids.a]);
  ids.sceneB = await one(`INSERT INTO scene(customer_id, code, label) VALUES ($1, 'SB', 'Scene B') RETURNING id`, [ids.b]);
  ids.carrierA = await one(`INSERT INTO carrier(customer_id, scene_id, name, type) VALUES ($1, $2, 'Fridge A', 2) RETURNING id`, [ids.a, ids.sceneA]);
  ids.carrierB = await one(`INSERT INTO carrier(customer_id, scene_id, name, type) VALUES ($1, $2, 'Fridge B', 2) RETURNING id`, [ids.b, ids.sceneB]);
  asA.customerIds = [ids.a];
});
afterAll(() => fresh?.drop());

const carrierNames = async () => (await db.query<{ name: string }>('SELECT name FROM carrier ORDER BY id')).map((r) => r.name);

describe('scoped(q, scope)', () => {
  it('reads only the scope\'s rows, in joins and subqueries too', async () => {
    const k = scoped(db, asA);
    expect(await k.selectFrom('carrier').select('name').execute()).toEqual([{ name: 'Fridge A' }]);
    // A join that forgot the customer: the joined tenant table is filtered as well.
    const joined = await k
      .selectFrom('scene as s')
      .leftJoin('carrier as c', (j) => j.onTrue())
      .select(['s.label', 'c.name'])
      .orderBy('c.name')
      .execute();
    expect(joined).toEqual([{ label: 'Scene A', name: 'Fridge A' }]);
    const sub = await k
      .selectFrom('customer')
      .select((eb) => eb.selectFrom('carrier').select(eb.fn.countAll<number>().as('n')).as('carriers'))
      .execute();
    expect(sub).toEqual([{ carriers: 1 }]);
  });

  it('a platform scope reads every customer', async () => {
    expect((await scoped(db, platform).selectFrom('carrier').select('name').execute()).length).toBe(2);
  });

  it('an update or delete by id of another customer\'s row changes nothing', async () => {
    const k = scoped(db, asA);
    const upd = await k.updateTable('carrier').set({ name: 'Taken' }).where('id', '=', ids.carrierB).executeTakeFirst();
    expect(upd.numUpdatedRows).toBe(0n);
    const del = await k.deleteFrom('carrier').where('id', 'in', [ids.carrierA, ids.carrierB]).where('name', '=', 'Fridge B').executeTakeFirst();
    expect(del.numDeletedRows).toBe(0n);
    expect(await carrierNames()).toEqual(['Fridge A', 'Fridge B']);
    const own = await k.updateTable('carrier').set({ name: 'Fridge A' }).where('id', '=', ids.carrierA).executeTakeFirst();
    expect(own.numUpdatedRows).toBe(1n);
  });

  it('an insert must name a customer of the scope', async () => {
    const k = scoped(db, asA);
    await expect(k.insertInto('carrier').values({ customer_id: ids.b, scene_id: ids.sceneB, name: 'Planted', type: 2 }).execute()).rejects.toThrow(TenantScopeError);
    await expect(k.insertInto('contact').values({ name: 'No customer' } as any).execute()).rejects.toThrow(/must name its customer_id/);
    await expect(k.updateTable('carrier').set({ customer_id: ids.b }).where('id', '=', ids.carrierA).execute()).rejects.toThrow(TenantScopeError);
    const ok = await k.insertInto('contact').values({ customer_id: ids.a, name: 'Nurse' }).returning('id').executeTakeFirstOrThrow();
    expect(ok.id).toBeGreaterThan(0);
  });

  it('an upsert never updates another customer\'s row', async () => {
    const k = scoped(db, asA);
    // scene.code is unique across customers: the conflicting row is B's.
    const r = await k
      .insertInto('scene')
      .values({ customer_id: ids.a, code: 'SB', label: 'Hijack' })
      .onConflict((oc) => oc.column('code').doUpdateSet({ label: 'Hijack' }))
      .returning('id')
      .execute();
    expect(r).toEqual([]);
    expect((await db.query(`SELECT label FROM scene WHERE code = 'SB'`))[0].label).toBe('Scene B');
  });

  it("a scene-limited caller's update or delete of a record outside its scenes changes nothing; inside, it does", async () => {
    const one = async (text: string, params: unknown[]) => (await db.query<{ id: number }>(text, params))[0].id;
    const sceneA2 = await one(`INSERT INTO scene(customer_id, code, label) VALUES ($1, 'SA2', 'Scene A2') RETURNING id`, [ids.a]);
    const carrierA2 = await one(`INSERT INTO carrier(customer_id, scene_id, name, type) VALUES ($1, $2, 'Fridge A2', 2) RETURNING id`, [ids.a, sceneA2]);
    const limited = scoped(db, { customerIds: [ids.a], sceneIds: [ids.sceneA] });
    const upd = await limited.updateTable('carrier').set({ name: 'Taken' }).where('id', 'in', [carrierA2, ids.carrierB]).executeTakeFirst();
    expect(upd.numUpdatedRows).toBe(0n);
    expect((await limited.deleteFrom('scene as s').where('s.id', '=', sceneA2).executeTakeFirst()).numDeletedRows).toBe(0n);
    expect(await carrierNames()).toEqual(['Fridge A', 'Fridge B', 'Fridge A2']);
    expect((await limited.updateTable('carrier').set({ name: 'Fridge A' }).where('id', '=', ids.carrierA).executeTakeFirst()).numUpdatedRows).toBe(1n);
    // Every scene-bound table's condition is valid SQL, under its name or an alias.
    for (const table of ['scene', 'carrier', 'gateway', 'sensor', 'relay', 'display', 'base', 'exception_record', 'notice_log'] as const) {
      await limited.updateTable(`${table} as t` as 'scene as t').set({ customer_id: ids.a }).where('t.id', '=', -1).execute();
      await limited.deleteFrom(table).where('id', '=', -1).execute();
    }
    // Reads are held by the modules (sceneLimit), not here; unlimited callers write as before.
    expect((await limited.selectFrom('carrier').select('name').orderBy('id').execute()).length).toBe(2);
    expect((await scoped(db, asA).deleteFrom('carrier').where('id', '=', carrierA2).executeTakeFirst()).numDeletedRows).toBe(1n);
    await db.query('DELETE FROM scene WHERE id = $1', [sceneA2]);
  });

  it('refuses raw SQL over a tenant table', async () => {
    const k = scoped(db, asA);
    await expect(k.selectFrom('customer').select(sql<number>`(SELECT count(*) FROM carrier)`.as('n')).execute()).rejects.toThrow(/raw SQL over carrier/);
  });
});

describe('system(q)', () => {
  it('a query on a tenant table without scope fails, and changes nothing', async () => {
    await expect(system(db).selectFrom('carrier').selectAll().execute()).rejects.toThrow(TenantScopeError);
    await expect(system(db).deleteFrom('carrier').execute()).rejects.toThrow(TenantScopeError);
    await expect(sql`DELETE FROM carrier`.execute(system(db))).rejects.toThrow(TenantScopeError);
    expect(await carrierNames()).toEqual(['Fridge A', 'Fridge B']);
  });

  it('reads tables that hold no customer\'s data', async () => {
    const rows = await system(db).selectFrom('menu_resource').select('code').limit(1).execute();
    expect(rows.length).toBe(1);
  });
});
