import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { GUIDE_ARTICLES, syncGuide } from '../../platform/seed/guide.js';

let t: TestCtx;
let root: string;
let alpha: string;

type Answer = { state: { code: number; msg: string }; result: any };
const call = async (cookie: string, method: string, url: string, payload?: unknown, lang = 'en-US'): Promise<Answer & { status: number }> => {
  const res = await t.app.inject({ method: method as any, url, payload: payload as any, headers: { cookie, 'accept-language': lang } });
  return { status: res.statusCode, ...res.json() };
};
const count = async (table: 'guide_group' | 'guide_item') => (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))!.n;

beforeAll(async () => {
  t = await setup();
  root = await t.login('admin');
  alpha = await t.login('alpha');
}, 180_000);
afterAll(() => t?.close());

describe('the guide (spec §3 guide group and item, §7 guide/*, share/guide)', () => {
  it("every user reads the product's articles in both languages, in order", async () => {
    const book = (await call(alpha, 'GET', '/service/share/guide')).result as { code: string; nameZh: string; nameEn: string; items: { code: string; contentZh: string; contentEn: string; path: string }[] }[];
    expect(book.map((g) => g.code)).toEqual(GUIDE_ARTICLES.map((g) => g.code));
    const items = book.flatMap((g) => g.items);
    expect(items).toHaveLength(GUIDE_ARTICLES.reduce((n, g) => n + g.items.length, 0));
    for (const i of items) expect(i.contentZh.length * i.contentEn.length, i.code).toBeGreaterThan(0);
    expect(items.find((i) => i.code === 'ex.records')).toMatchObject({ path: '/abnormal/dataex' });
  });

  it("a customer's administrator reads the guide but manages none of it: 500102, nothing changes", async () => {
    const before = [await count('guide_group'), await count('guide_item')];
    for (const [method, url, body] of [
      ['GET', '/service/guide/groups', undefined],
      ['GET', '/service/guide/list/1', undefined],
      ['POST', '/service/guide/group/add', { code: 'intruder', nameEn: 'Intruder' }],
      ['POST', '/service/guide/add', { groupId: 1, code: 'intruder', nameEn: 'Intruder' }],
      ['DELETE', '/service/guide/del/1', undefined],
      ['POST', '/service/guide/update?ids=1&status=0', undefined],
    ] as const) {
      expect((await call(alpha, method, url, body)).state.code, `${method} ${url}`).toBe(500102);
    }
    expect([await count('guide_group'), await count('guide_item')]).toEqual(before);
  });

  it('platform staff add a group and an article, show and hide it; the rules refuse bad input with a clear message', async () => {
    const g = (await call(root, 'POST', '/service/guide/group/add', { code: 'local', nameEn: 'Our ward', nameZh: '本科室' })).result.id as number;
    const bad = await call(root, 'POST', '/service/guide/add', { groupId: g, code: 'has space', nameEn: 'X' });
    expect(bad.status).toBe(400);
    expect(bad.state.code).toBe(400);
    expect(bad.state.msg).toContain('letters, digits');
    expect((await call(root, 'POST', '/service/guide/add', { groupId: g, code: 'local.none' })).state.msg).toContain('at least one language');
    expect((await call(root, 'POST', '/service/guide/add', { groupId: g, code: 'local.page', nameEn: 'Page', path: 'abnormal' }, 'zh-CN')).state.msg).toContain('控制台的路径');
    const item = (await call(root, 'POST', '/service/guide/add', { groupId: g, code: 'local.fridge', nameEn: 'Our fridge', contentEn: 'Check it twice a day.', path: '/carrierDetailPage' })).result.id as number;
    expect((await call(root, 'POST', '/service/guide/add', { groupId: g, code: 'local.fridge', nameEn: 'Again' })).state.code).toBe(420);
    expect((await call(root, 'GET', `/service/guide/list/${g}`)).result).toEqual([expect.objectContaining({ id: item, code: 'local.fridge', contentEn: 'Check it twice a day.', status: 1, builtin: false })]);
    const shown = async () => ((await call(alpha, 'GET', '/service/share/guide')).result as { code: string }[]).map((x) => x.code);
    expect(await shown()).toContain('local');
    expect((await call(root, 'POST', `/service/guide/update?ids=${item}&status=0`)).result).toEqual({ updated: 1 });
    // A group with no shown article is left out of the reader's guide.
    expect(await shown()).not.toContain('local');
    expect((await call(root, 'POST', `/service/guide/update?ids=${item},999999&status=1`)).status).toBe(404);
    expect((await call(root, 'GET', `/service/guide/list/${g}`)).result[0].status).toBe(0);
    // A group that holds articles is not deleted; emptied, it is.
    expect((await call(root, 'DELETE', `/service/guide/group/del/${g}`)).state.msg).toContain('still holds articles');
    expect((await call(root, 'DELETE', `/service/guide/del/${item}`)).result).toEqual({ deleted: 1 });
    expect((await call(root, 'DELETE', `/service/guide/group/del/${g}`)).result).toEqual({ deleted: 1 });
    expect((await call(root, 'DELETE', `/service/guide/group/del/${g}`)).status).toBe(404);
  });

  it("an article staff edited keeps their text when the product's articles are synchronised again", async () => {
    const groups = (await call(root, 'GET', '/service/guide/groups')).result as { id: number; code: string }[];
    const start = groups.find((x) => x.code === 'start')!;
    const [home] = (await call(root, 'GET', `/service/guide/list/${start.id}`)).result as { id: number; groupId: number; code: string; nameZh: string; nameEn: string; path: string }[];
    const edit = { id: home.id, groupId: home.groupId, code: home.code, nameZh: home.nameZh, nameEn: home.nameEn, path: home.path, contentEn: 'Our own words.', contentZh: '我们的话。' };
    expect((await call(root, 'PUT', '/service/guide/update', edit)).result).toEqual({ id: home.id });
    await syncGuide(t.db);
    const after = (await call(root, 'GET', `/service/guide/list/${start.id}`)).result[0];
    expect(after).toMatchObject({ contentEn: 'Our own words.', builtin: true });
    // One that nobody edited goes back to the product's text.
    await t.db.query(`UPDATE guide_item SET content_en = 'stale' WHERE code = 'start.wizard'`);
    await syncGuide(t.db);
    const wizard = (await t.db.one<{ content_en: string }>(`SELECT content_en FROM guide_item WHERE code = 'start.wizard'`))!;
    expect(wizard.content_en).toBe(GUIDE_ARTICLES[0].items[1].contentEn);
  });
});
