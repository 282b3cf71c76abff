import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';
import { seedExample } from '../mapping/mapping.fixture.js';
import { runExport } from '../../jobs/export/index.js';
import type { ExportPayload } from './exports.js';

/** A verification task's results exported (docs/exports.md): its figures named in the asker's language, its points' rows. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
let ex: Awaited<ReturnType<typeof seedExample>>;
beforeAll(async () => {
  ex = await seedExample(t, a);
});

async function exported(id: number, lang: string): Promise<ExcelJS.Workbook> {
  const r = await t.app.inject({ method: 'POST', url: '/service/exportTask/verifyTask', headers: { cookie: `${a.cookie}; lang=${lang}` }, payload: { id, format: 'xlsx' } });
  const created = r.json().result as { id: number };
  const [job] = await t.db.query<{ id: number; payload: ExportPayload }>(`SELECT id, payload FROM job WHERE name = 'export' AND state = 'queued' ORDER BY id DESC LIMIT 1`);
  await runExport(t.db, job.payload);
  await t.db.query(`UPDATE job SET state = 'done' WHERE id = $1`, [job.id]);
  const file = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } });
  expect(file.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file.rawPayload as never);
  return book;
}

describe('verification task export', () => {
  it("names the task's figures in the asker's language and lists every point; another customer's task is a 404", async () => {
    const { id } = await call(t, a.cookie, 'POST', '/service/verifyTask/add', {
      name: 'Fridge mapping', carrierId: a.carrierId, sensorIds: [ex.ids.T1, ex.ids.T2, ex.ids.T3], setpoint: 5, humSetpoint: 50,
      startTime: ex.start - 60_000, recordStart: ex.start, endTime: ex.end, intervalS: 60, conditions: 'empty',
    });
    const labels = (book: ExcelJS.Workbook) => book.worksheets[0].getColumn(1).values.filter((v) => typeof v === 'string') as string[];
    const zh = await exported(id, 'zh-CN');
    expect(labels(zh)).toEqual(expect.arrayContaining([expect.stringMatching(/设定值$/), expect.stringMatching(/均匀度$/), expect.stringMatching(/最热点$/)]));
    expect(zh.worksheets[1].getRow(1).values).toContain('波动度');
    expect(zh.worksheets[1].rowCount).toBeGreaterThanOrEqual(4); // the header and the three points
    const es = await exported(id, 'es-ES');
    expect(labels(es)).toEqual(expect.arrayContaining([expect.stringMatching(/Consigna$/), expect.stringMatching(/Uniformidad$/)]));
    expect(labels(es).join(' ')).not.toMatch(/setpoint|uniformity|hottest/);
    const foreign = await t.app.inject({ method: 'POST', url: '/service/exportTask/verifyTask', headers: { cookie: b.cookie }, payload: { id, format: 'xlsx' } });
    expect(foreign.statusCode).toBe(404);
  });
});
