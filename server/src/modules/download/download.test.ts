import ExcelJS from 'exceljs';
import { EXPORT_MAX_ROWS } from '@coldwatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call, seedRecords, type Records } from '../shared/records.fixture.js';
import { runExport } from '../../jobs/export/index.js';
import { READ_WINDOW_MS } from '../../jobs/export/context.js';
import type { Db } from '../../platform/db/client.js';
import type { ExportPayload } from './exports.js';

/*
 * Exports as durable jobs (issue 30; docs/exports.md): asked for through the API, made by the
 * export job, watched by key, downloaded with their name, deleted when ended; refused with the
 * spec's messages and no record when the input is bad; nothing of another customer's.
 */

let t: TestCtx;
let a: Records;
let b: Records;
const T0 = Date.UTC(2025, 6, 1);
const MIN = 60_000;
const N = 3000;
const END = T0 + N * MIN;

beforeAll(async () => {
  t = await setup();
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  b = await seedRecords(t, 'beta', 'Beta', 'B1');
  await t.db.query(`UPDATE carrier SET temp_min = 2, temp_max = 8 WHERE id = $1`, [a.carrierId]);
  await t.db.query(
    `INSERT INTO reading(sensor_id, ts, customer_id, temp, hum)
     SELECT $1, to_timestamp(($2::bigint + g * 60000) / 1000.0), $3, CASE WHEN g = 100 THEN 10 ELSE 4 END, 50 FROM generate_series(0, $4 - 1) g`,
    [a.sensorId, T0, a.customerId, N],
  );
}, 180_000);
afterAll(() => t.close());

const records = async (customerId: number) => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM download_record WHERE customer_id = $1', [customerId]))!.n;

/** Runs the export job's queued runs now, as the runner would. */
async function runQueued() {
  const jobs = await t.db.query<{ id: number; payload: ExportPayload }>(`SELECT id, payload FROM job WHERE name = 'export' AND state = 'queued' ORDER BY id`);
  for (const j of jobs) {
    await runExport(t.db, j.payload);
    await t.db.query(`UPDATE job SET state = 'done' WHERE id = $1`, [j.id]);
  }
}

/** The database going away after the first statement `when` picks: every later statement fails as a terminated connection's does. */
function goneAfter(db: Db, when: (text: string) => boolean): Db {
  let gone = false;
  const terminated = () => Promise.reject(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query' || prop === 'run' || prop === 'one' || prop === 'exec') {
        return (text: string, params?: unknown[]) => {
          if (gone) return terminated();
          if (when(text)) gone = true;
          return (target[prop] as (t: string, p?: unknown[]) => Promise<unknown>)(text, params);
        };
      }
      if (prop === 'tx') return (fn: Parameters<Db['tx']>[0]) => (gone ? terminated() : target.tx(fn));
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

const post = (cookie: string, url: string, payload: unknown, lang = 'en-US') => t.app.inject({ method: 'POST', url, headers: { cookie: `${cookie}; lang=${lang}` }, payload: payload as object });

describe('exports', () => {
  it("exports a device's history as xlsx: a record being generated, then generated with its rows, times in the customer's zone named in the header", async () => {
    const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: T0, end: END, format: 'xlsx' });
    expect(created.name).toMatch(/^history-.*\.xlsx$/);
    const watched = await call(t, a.cookie, 'GET', `/service/download/record/userProgress?keys=${created.key}`);
    expect(watched).toEqual([expect.objectContaining({ key: created.key, status: 'generating', end: false })]);
    expect(await call(t, a.cookie, 'POST', '/service/download/record/progress')).toEqual([expect.objectContaining({ key: created.key })]);
    await runQueued();
    const [done] = await call(t, a.cookie, 'GET', `/service/download/record/userProgress?keys=${created.key}`);
    expect(done).toMatchObject({ status: 'generated', progress: 100, end: true, error: null });
    const rec = await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`);
    expect(rec).toMatchObject({ kind: 'export', source: 'history', format: 'xlsx', rows: N, status: 'generated' });
    expect(rec.expiresAt).toBeGreaterThan(rec.finishedAt);

    const file = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(created.name)}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(N + 1);
    expect(String(sheet.getRow(1).getCell(1).value)).toBe('时间（UTC+08:00）');
    // 2025-07-01 00:00 UTC is 08:00 in the customer's zone, a date-time cell of that wall clock
    // (exceljs hands it over as that clock's time in UTC); minute 100 is above the zone.
    expect(sheet.getRow(2).getCell(1).value).toEqual(new Date('2025-07-01T08:00:00.000Z'));
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getRow(102).getCell(4).value).toBe(10);
    expect(sheet.getRow(102).values).toContain('高于区间');
    expect(sheet.getRow(103).values).not.toContain('高于区间');
    expect(book.worksheets.map((w) => w.name)).toContain('说明');
  });

  it('reads a span longer than its read window whole: readings on and around the windows\' edges, and between milliseconds', async () => {
    const from = Date.UTC(2025, 8, 1);
    const edges = [0, 1, 2, 3].flatMap((k) => [k * READ_WINDOW_MS - 1, k * READ_WINDOW_MS, k * READ_WINDOW_MS + 1]).filter((d) => d >= 0);
    const times = [...edges.map((d) => from + d), from + READ_WINDOW_MS - 0.5, from + 10 * READ_WINDOW_MS - 60_000];
    await t.db.query(`INSERT INTO reading (sensor_id, ts, customer_id, temp) SELECT $1, to_timestamp(x / 1000.0), $2, 5 FROM unnest($3::float8[]) x`, [a.sensorId, a.customerId, times]);
    const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: from, end: from + 10 * READ_WINDOW_MS, format: 'csv' });
    await runQueued();
    expect(await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`)).toMatchObject({ status: 'generated', rows: times.length });
    const file = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } });
    expect(file.body.slice(1).trim().split('\r\n')).toHaveLength(times.length + 1);
    await t.db.query('DELETE FROM reading WHERE sensor_id = $1 AND ts >= $2', [a.sensorId, new Date(from)]);
  });

  it("exports a carrier's value as CSV with a byte-order mark, a defused formula cell and the zone in its header", async () => {
    await t.db.query(`UPDATE carrier SET name = '=HYPERLINK(1)' WHERE id = $1`, [a.carrierId]);
    const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { carrierIds: [a.carrierId], start: T0, end: T0 + 9 * MIN, format: 'csv' });
    await runQueued();
    const file = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } });
    expect(file.headers['content-type']).toContain('text/csv');
    const text = file.body;
    expect(text.startsWith('\ufeff')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toContain('UTC+08:00');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toContain(",'=HYPERLINK(1),");
    await t.db.query(`UPDATE carrier SET name = 'AlphaFridge' WHERE id = $1`, [a.carrierId]);
  });

  it('refuses bad input with the spec messages in all four languages and creates no record', async () => {
    const before = await records(a.customerId);
    const messages: Record<string, [unknown, RegExp[]]> = {
      startAfterEnd: [{ deviceNo: a.devNo, start: END, end: T0 }, [/start cannot be later than the end/, /开始时间不能晚于结束时间/, /開始は終了より後にできません/, /El inicio no puede ser posterior al fin/]],
      span: [{ deviceNo: a.devNo, start: 0, end: 401 * 86_400_000 }, [/at most 400 days/, /最多 400 天/, /最長400日/, /como máximo 400 días/]],
      onlyOne: [{ carrierIds: [a.carrierId, a.carrierId + 1], start: T0, end: END }, [/Only one carrier for query or export/, /查询或导出只能选择一个载体/, /保管対象は1件のみ/, /Solo un equipo para consultar o exportar/]],
      subject: [{ start: T0, end: END }, [/one device or one carrier/, /一个设备或一个载体/, /機器または保管対象を1つ/, /un dispositivo o un equipo/]],
    };
    for (const [what, [body, inLanguages]] of Object.entries(messages)) {
      for (const [i, lang] of (['en-US', 'zh-CN', 'ja-JP', 'es-ES'] as const).entries()) {
        const r = await post(a.cookie, '/service/share/exportHistory', body, lang);
        expect(r.statusCode, `${what} ${lang}: ${r.body}`).toBe(400);
        expect(r.json().state.msg, `${what} ${lang}`).toMatch(inLanguages[i]);
      }
    }
    // Another customer's carrier or device: a 404, as everywhere.
    expect((await post(a.cookie, '/service/share/exportHistory', { carrierIds: [b.carrierId], start: T0, end: END })).statusCode).toBe(404);
    expect((await post(a.cookie, '/service/share/exportHistory', { deviceNo: b.devNo, start: T0, end: END })).statusCode).toBe(404);
    expect(await records(a.customerId)).toBe(before);
  });

  it('refuses an export the hourly rollups say would pass the export limit of rows, and takes one within it', async () => {
    const hour = Date.UTC(2024, 0, 1);
    const rollup = async (n: number) => {
      await t.db.query('DELETE FROM reading_1h WHERE sensor_id = $1 AND bucket = $2', [a.sensorId, new Date(hour)]);
      await t.db.query(`INSERT INTO reading_1h (sensor_id, bucket, customer_id, n, first_ts, last_ts) VALUES ($1, $2, $3, $4, $2, $2)`, [a.sensorId, new Date(hour), a.customerId, n]);
    };
    const before = await records(a.customerId);
    await rollup(EXPORT_MAX_ROWS + 1);
    const over = await post(a.cookie, '/service/share/exportHistory', { deviceNo: a.devNo, start: hour, end: hour + 3_600_000, format: 'csv' });
    expect(over.json().state.msg).toBe(`An export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows; this one would hold about ${(EXPORT_MAX_ROWS + 1).toLocaleString('en-US')}: choose a shorter span`);
    expect(await records(a.customerId)).toBe(before);
    await rollup(EXPORT_MAX_ROWS);
    expect((await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: hour, end: hour + 3_600_000, format: 'csv' })).key).toBeTruthy();
    expect(await records(a.customerId)).toBe(before + 1);
    await t.db.query('DELETE FROM reading_1h WHERE sensor_id = $1 AND bucket = $2', [a.sensorId, new Date(hour)]);
    await runQueued();
  });

  it("shows, downloads and deletes nothing of another customer's; deletes only ended records", async () => {
    const created = await call(t, a.cookie, 'POST', '/service/exportTask/detailData', { carrierIds: [a.carrierId], start: T0, end: T0 + 60 * MIN, format: 'xlsx' });
    // Being generated: not deletable, not downloadable.
    const busy = await t.app.inject({ method: 'DELETE', url: `/service/download/record/delete?ids=${created.id}`, headers: { cookie: a.cookie } });
    expect(busy.json().state.code).not.toBe(200000);
    expect((await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${created.id}`, headers: { cookie: a.cookie } })).statusCode).toBe(409);
    await runQueued();
    for (const [method, url] of [
      ['GET', `/service/download/record/detail?id=${created.id}`],
      ['GET', `/service/download/record/download?id=${created.id}`],
      ['DELETE', `/service/download/record/delete?ids=${created.id}`],
      ['POST', `/service/download/record/regenerate?id=${created.id}`],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: { cookie: b.cookie } });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await call(t, b.cookie, 'GET', `/service/download/record/userProgress?keys=${created.key}`)).toEqual([]);
    expect((await call(t, b.cookie, 'GET', '/service/download/record/page')).rows).toEqual([]);
    expect(await call(t, a.cookie, 'DELETE', `/service/download/record/delete?ids=${created.id}`)).toEqual({ deleted: 1 });
    expect(await t.db.query('SELECT 1 FROM download_chunk WHERE record_id = $1', [created.id])).toEqual([]);
  });

  it('the database going away mid-export: the try fails back to the runner, the next ends the record failed (interrupted) with no file', async () => {
    const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: T0, end: END, format: 'xlsx' });
    const [job] = await t.db.query<{ id: number; payload: ExportPayload }>(`SELECT id, payload FROM job WHERE name = 'export' AND state = 'queued' ORDER BY id DESC LIMIT 1`);
    // Every statement after the first page of readings fails as a terminated connection does.
    await expect(runExport(goneAfter(t.db, (text) => text.includes('FROM reading WHERE')), job.payload)).rejects.toMatchObject({ code: '57P01' });
    expect(await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`)).toMatchObject({ status: 'generating' });
    // The database back, the runner's next try of the run.
    await runQueued();
    const rec = await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`);
    expect(rec).toMatchObject({ status: 'failed', end: true });
    expect(await t.db.query('SELECT 1 FROM download_chunk WHERE record_id = $1', [created.id])).toEqual([]);
    const reason = await t.db.one<{ error: string }>('SELECT error FROM download_record WHERE id = $1', [created.id]);
    expect(reason!.error).toBe('errors.export.interrupted');
  });

  it('a full disk while the file is stored: the record ends failed with the database\'s reason and no file', async () => {
    await t.db.exec(`
      CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device' USING ERRCODE = 'disk_full'; END $$;
      CREATE TRIGGER test_disk_full BEFORE INSERT ON download_chunk FOR EACH ROW EXECUTE FUNCTION test_disk_full();`);
    try {
      const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: T0, end: END, format: 'xlsx' });
      await runQueued();
      const rec = await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`);
      expect(rec).toMatchObject({ status: 'failed', end: true, size: null });
      expect(rec.error).toContain('No space left on device');
      expect(await t.db.query('SELECT 1 FROM download_chunk WHERE record_id = $1', [created.id])).toEqual([]);
    } finally {
      await t.db.exec('DROP TRIGGER test_disk_full ON download_chunk; DROP FUNCTION test_disk_full();');
    }
  });

  it('an export cut off mid-way ends failed with a reason and no file; a missing file asks to generate it again', async () => {
    const created = await call(t, a.cookie, 'POST', '/service/share/exportHistory', { deviceNo: a.devNo, start: T0, end: END, format: 'csv' });
    // A try began (its start written) and never ended: the database went away, the process died.
    await t.db.query(`UPDATE download_record SET started_at = now() WHERE id = $1`, [created.id]);
    await t.db.query(`INSERT INTO download_chunk (record_id, seq, customer_id, data) VALUES ($1, 0, $2, '\\x41')`, [created.id, a.customerId]);
    await runQueued();
    const rec = await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${created.id}`);
    expect(rec).toMatchObject({ status: 'failed', end: true });
    expect(rec.error).toBeTruthy();
    expect(await t.db.query('SELECT 1 FROM download_chunk WHERE record_id = $1', [created.id])).toEqual([]);
    // Generated again: a new record, made anew.
    const again = await call(t, a.cookie, 'POST', `/service/download/record/regenerate?id=${created.id}`);
    await runQueued();
    expect((await call(t, a.cookie, 'GET', `/service/download/record/detail?id=${again.id}`)).status).toBe('generated');
    // Its file lost: the download says so (410) instead of sending a broken file.
    await t.db.query('DELETE FROM download_chunk WHERE record_id = $1', [again.id]);
    const gone = await t.app.inject({ method: 'GET', url: `/service/download/record/download?id=${again.id}`, headers: { cookie: `${a.cookie}; lang=en-US` } });
    expect(gone.statusCode).toBe(410);
    expect(gone.json().state.msg).toMatch(/generate it again/);
  });
});
