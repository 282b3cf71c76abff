import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { multipart, uploadAs } from '../../../test/upload.js';
import { bombXlsx } from '../../platform/xlsx/zip.fixture.js';

/** The imports of spec §7 against zip bombs (docs/security.md): refused with a translated 400 before the sheet is inflated. */

const MB = 1024 * 1024;
const IMPORTS = ['/service/sensor/importSensor', '/service/gas/import', '/service/magnetism/import'];

let t: TestCtx;
let cookie: string;
let bomb: Buffer;
beforeAll(async () => {
  t = await setup();
  cookie = await t.login('alpha');
  bomb = bombXlsx(1000 * MB);
}, 60_000);
afterAll(() => t.close());

describe('xlsx imports and zip bombs', () => {
  it('refuses a 1 MB file of 1,000 MB unpacked on every import, in the caller’s language, and logs the refusal', async () => {
    expect(bomb.length).toBeLessThan(1.1 * MB);
    for (const url of IMPORTS) {
      const res = await uploadAs(t, url, cookie, 'bomb.xlsx', bomb);
      expect(res.statusCode).toBe(400);
      expect(res.json().state).toEqual({ code: 400, msg: 'The import file unpacks to more than the limit (16 MB per part, 32 MB in all); import fewer rows at a time' });
    }
    const m = multipart('bomb.xlsx', bomb);
    const zh = await t.app.inject({ method: 'POST', url: IMPORTS[0], payload: m.payload, headers: { ...m.headers, cookie, 'accept-language': 'zh-CN' } });
    expect(zh.json().state.msg).toBe('导入文件解压后超出限制（单个部件 16 MB，合计 32 MB），请分批导入');
    const logged = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE method = 'import' AND result = 0 AND customer_id = $1`, [t.tenants.a.customerId]);
    expect(logged[0].n).toBe(IMPORTS.length + 1);
  });

  it('answers health checks while three bombs, one of them lying about its size, arrive at once', async () => {
    const lying = bombXlsx(1000 * MB, { lie: true });
    const [health, ...answers] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/healthz' }),
      uploadAs(t, IMPORTS[0], cookie, 'a.xlsx', bomb),
      uploadAs(t, IMPORTS[1], cookie, 'b.xlsx', lying),
      uploadAs(t, IMPORTS[2], cookie, 'c.xlsx', bomb),
    ]);
    expect(health.statusCode).toBe(200);
    expect(answers.map((r) => [r.statusCode, r.json().state.code])).toEqual([
      [400, 400],
      [400, 400],
      [400, 400],
    ]);
    expect(answers[1].json().state.msg).toBe('The import file is damaged; save it again from Excel and import it again');
  });
});
