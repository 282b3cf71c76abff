import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { enrol } from '../../ingest/test-fixtures.js';
import { pageBounds } from './query.js';
import { crossTenant } from './kysely.js';

/*
 * Pages found on the listed table alone and joined after (paged()'s `base`): every page, in
 * every order the contract allows, holds exactly the rows that the whole ordered list holds
 * there, with the joined columns, and nothing of another customer.
 */
let t: TestCtx;
let cookie: string;
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(res.statusCode, url + res.body).toBe(200);
  return res.json().result as { total: number; more?: boolean; rows: Record<string, unknown>[] };
};

beforeAll(async () => {
  t = await setup();
  const a = t.tenants.a.customerId;
  for (let i = 0; i < 4; i++) await enrol(t.db, a, 6);
  await enrol(t.db, t.tenants.b.customerId, 5);
  // Statuses and last readings that tie, so that the default order has to break the ties (and a type the contract knows).
  await t.db.query(`UPDATE sensor SET type = 'zigbee_th', status = id % 3, last_ts = now() - (id % 4) * interval '1 minute' WHERE customer_id = $1`, [a]);
  // Exceptions of customer A on its sensors, some starting at the same moment; some of B's.
  await t.db.query(
    `INSERT INTO exception_record (customer_id, sensor_id, carrier_id, type, category, status, ongoing, start_ts, end_ts)
     SELECT s.customer_id, s.id, s.carrier_id, 'data', 'temp_high', g % 3, false, now() - (g / 2) * interval '1 hour', now() - (g / 2) * interval '1 hour' + interval '10 minutes'
       FROM sensor s CROSS JOIN generate_series(1, 3) g`,
  );
  cookie = await t.login('alpha');
}, 180_000);
afterAll(() => t?.close());

/** Every row of the list, one page of `len` after the other. */
async function walk(path: string, len: number) {
  const first = await get(`${path}${path.includes('?') ? '&' : '?'}iDisplayStart=0&iDisplayLength=${len}`);
  const rows = [...first.rows];
  for (let start = len; start < first.total; start += len) rows.push(...(await get(`${path}${path.includes('?') ? '&' : '?'}iDisplayStart=${start}&iDisplayLength=${len}`)).rows);
  return { total: first.total, rows };
}

describe('a page found on the listed table and joined after', () => {
  it('sensors: every order and page size gives the whole list once, in order, with its joined columns', async () => {
    const whole = await t.db.query<{ id: number; dev_no: string; status: number; last_ts: Date }>(`SELECT id, dev_no, status, last_ts FROM sensor WHERE customer_id = $1`, [t.tenants.a.customerId]);
    const byId = (x: { id: number }, y: { id: number }) => x.id - y.id;
    const orders: [string, (x: (typeof whole)[number], y: (typeof whole)[number]) => number][] = [
      ['', byId],
      ['&sort=devNo&order=desc', (x, y) => (x.dev_no < y.dev_no ? 1 : x.dev_no > y.dev_no ? -1 : 0) || byId(x, y)],
      ['&sort=status&order=asc', (x, y) => x.status - y.status || byId(x, y)],
      ['&sort=lastTs&order=desc', (x, y) => y.last_ts.getTime() - x.last_ts.getTime() || byId(x, y)],
    ];
    for (const [q, cmp] of orders) {
      // 15: a page size of the spec, whose first page is written into the statement (pageBounds).
      for (const len of [5, 7, 15, 24]) {
        const { total, rows } = await walk(`/service/sensor/page${q.replace('&', '?')}`, len);
        expect(total).toBe(24);
        expect(rows.map((r) => r.id)).toEqual([...whole].sort(cmp).map((s) => s.id));
        expect(rows.every((r) => r.gatewaySn && r.carrierName && r.customerName === 'Alpha Hospital')).toBe(true);
      }
    }
  });

  it('gateways and carriers: every order and page size gives the whole list once, in order, with its joined columns; a search likewise', async () => {
    const a = t.tenants.a.customerId;
    const lists = [
      { path: '/service/gateway/page', table: 'gateway', name: 'sn', sort: 'sn', joined: (r: Record<string, unknown>) => r.customerName === 'Alpha Hospital' },
      { path: '/service/carrier/page', table: 'carrier', name: 'name', sort: 'name', joined: (r: Record<string, unknown>) => r.customerName === 'Alpha Hospital' && !!r.sceneLabel },
    ];
    for (const l of lists) {
      const whole = await t.db.query<{ id: number; key: string }>(`SELECT id, ${l.name} AS key FROM ${l.table} WHERE customer_id = $1 ORDER BY id`, [a]);
      const desc = [...whole].sort((x, y) => (x.key < y.key ? 1 : x.key > y.key ? -1 : x.id - y.id));
      for (const [q, want] of [['', whole], [`?sort=${l.sort}&order=desc`, desc]] as const) {
        for (const len of [2, 3, 15]) {
          const { total, rows } = await walk(`${l.path}${q}`, len);
          expect(total).toBe(whole.length);
          expect(rows.map((r) => r.id)).toEqual(want.map((x) => x.id));
          expect(rows.every(l.joined)).toBe(true);
        }
      }
      // A part of one row's name or number, in the middle: that row only (counted and paged alike).
      const one = whole[1].key;
      const found = await get(`${l.path}?iDisplayStart=0&iDisplayLength=15&${l.table === 'gateway' ? 'sn' : 'name'}=${encodeURIComponent(one.slice(1))}`);
      expect(found.rows.map((r) => r.id)).toEqual(whole.filter((x) => x.key.includes(one.slice(1))).map((x) => x.id));
      expect(found.total).toBe(found.rows.length);
    }
  });

  it('exceptions: newest first, ties by id, with filters on the table and on the sensor join, pages past the first', async () => {
    const whole = async (where = '', params: unknown[] = []) =>
      (await t.db.query<{ id: number }>(`SELECT e.id FROM exception_record e LEFT JOIN sensor s ON s.id = e.sensor_id WHERE e.customer_id = $1 ${where} ORDER BY e.start_ts DESC, e.id DESC`, [t.tenants.a.customerId, ...params])).map((r) => r.id);
    const all = await walk('/service/exception/page', 10);
    expect(all.total).toBe(72);
    expect(all.rows.map((r) => r.id)).toEqual(await whole());
    expect(all.rows.every((r) => r.devNo && r.carrierName && r.customerName === 'Alpha Hospital')).toBe(true);
    const byTwenty = await walk('/service/exception/page', 20);
    expect(byTwenty.rows.map((r) => r.id)).toEqual(await whole());
    const done = await walk('/service/exception/page?status=2', 4);
    expect(done.rows.map((r) => r.id)).toEqual(await whole('AND e.status = 2'));
    const [{ dev }] = await t.db.query<{ dev: string }>(`SELECT dev_no AS dev FROM sensor WHERE customer_id = $1 ORDER BY id LIMIT 1`, [t.tenants.a.customerId]);
    const one = await walk(`/service/exception/page?devNo=${dev}`, 2);
    expect(one.rows.map((r) => r.id)).toEqual(await whole('AND s.dev_no ILIKE $2', [`%${dev}%`]));
    expect(one.rows.length).toBe(3);
  });
});

describe('pageBounds', () => {
  const compiled = (iDisplayStart: number, iDisplayLength: number) => {
    const { limit, offset } = pageBounds({ iDisplayStart, iDisplayLength });
    const q = crossTenant(t.db, 'compiling a statement, not running it').selectFrom('app_user').select('id').limit(limit).offset(offset).compile();
    return { sql: q.sql, parameters: q.parameters };
  };

  it("writes the first page of the spec's page sizes into the statement, so that PostgreSQL keeps one generic plan for it", () => {
    for (const size of [15, 20, 50, 100]) expect(compiled(0, size)).toEqual({ sql: `select "id" from "app_user" limit ${size} offset 0`, parameters: [] });
  });

  it('passes any other page as parameters, so that the texts to prepare stay few', () => {
    expect(compiled(20, 20)).toEqual({ sql: 'select "id" from "app_user" limit $1 offset $2', parameters: [20, 20] });
    expect(compiled(0, 7)).toEqual({ sql: 'select "id" from "app_user" limit $1 offset $2', parameters: [7, 0] });
  });
});
