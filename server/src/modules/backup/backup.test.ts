import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { seedRecords, SETUP_MS, type Records } from '../shared/records.fixture.js';
import { BACKUP_JOB, nextAt, startBackupJob } from '../../jobs/backup.js';
import { tempDir } from './backup.fixture.js';
import { runBackup, type BackupTarget } from './backup.service.js';
import { signLink } from './link.js';

/*
 * The backup routes and job on the test database (PostgreSQL with DATABASE_URL, PGlite
 * without): who may list, download and share a backup, the signed link of /dataBackup,
 * retention, a failed run that costs no earlier backup, and the customer's scene export in
 * its tenant scope. restore.test.ts restores what the job writes.
 */

let t: TestCtx;
let a: Records;
let dir: string;
let root: string;
let alpha: string;
let beta: string;
let platformUser: string;
let target: BackupTarget;

beforeAll(async () => {
  dir = await tempDir('backups');
  t = await setup({ BACKUP_DIR: dir });
  target = { db: t.db, backupDir: dir, databaseUrl: t.databaseUrl };
  a = await seedRecords(t, 'alpha', 'Alpha', 'A1');
  await seedRecords(t, 'beta', 'Beta', 'B1');
  // A platform user (type 2) holding the platform administrator role: every platform function, not the account type.
  await t.addUser(t.tenants.root.customerId, 'puser', 'Platform administrator', 2);
  [root, alpha, beta, platformUser] = await Promise.all(['admin', 'alpha', 'beta', 'puser'].map((u) => t.login(u)));
}, SETUP_MS);
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const get = (cookie: string | undefined, url: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie, 'accept-language': 'en-US' } : { 'accept-language': 'en-US' } });
const post = (cookie: string, url: string) => t.app.inject({ method: 'POST', url, headers: { cookie, 'accept-language': 'en-US' } });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const logged = async (method: string) =>
  (await t.db.query<{ content: string; operator: string }>(`SELECT content, operator FROM sys_log WHERE module = 'backup' AND method = $1 ORDER BY id`, [method])).map((r) => `${r.operator}: ${r.content}`);

describe('the list and downloads', () => {
  it('lists each backup for platform users; a customer gets 500102', async () => {
    const b = await runBackup(target);
    const list = (await get(root, '/service/share/backup/file/list?iDisplayStart=0&iDisplayLength=15')).json();
    expect(list.state.code).toBe(200000);
    expect(list.result).toMatchObject({ dir, retentionYears: 5, iDisplayStart: 0, iDisplayLength: 15 });
    expect(list.result.rows[0]).toMatchObject({ name: b.name, kind: b.kind, outcome: 'ok', sizeBytes: b.sizeBytes, sha256: b.sha256, present: true, deletedAt: null });
    expect(b.kind).toBe(t.databaseUrl ? 'pg_dump' : 'pglite');
    expect((await get(platformUser, '/service/share/backup/file/list')).json().state.code).toBe(200000);
    expect((await get(alpha, '/service/share/backup/file/list')).json().state.code).toBe(500102);
  });

  it('a platform administrator downloads the file as written; a platform user without the account type may not', async () => {
    const [row] = (await get(root, '/service/share/backup/file/list')).json().result.rows;
    const res = await get(root, `/service/share/backup/file/download?id=${row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${row.name}"`);
    expect(sha(res.rawPayload)).toBe(row.sha256);
    expect(await logged('download')).toContain(`admin: download backup ${row.name}`);
    const refused = (await get(platformUser, `/service/share/backup/file/download?id=${row.id}`)).json();
    expect(refused.state).toMatchObject({ code: 500102, msg: 'Only platform administrators may download backups' });
    expect((await post(platformUser, `/service/share/backup/file/link?id=${row.id}`)).json().state.code).toBe(500102);
    expect((await get(alpha, `/service/share/backup/file/download?id=${row.id}`)).json().state.code).toBe(500102);
  });
});

describe('the signed link of /dataBackup', () => {
  it('opens the backup without a session until it expires, and each download is logged with who made the link', async () => {
    const [row] = (await get(root, '/service/share/backup/file/list')).json().result.rows;
    const made = (await post(root, `/service/share/backup/file/link?id=${row.id}`)).json().result;
    const url = new URL(made.url);
    expect(url.pathname).toBe('/dataBackup');
    expect(made.expiresAt - Date.now()).toBeGreaterThan(23 * 3600_000);
    const query = url.search;
    const info = (await get(undefined, `/service/share/backup/file/shared${query}`)).json();
    expect(info.result).toEqual({ name: row.name, sizeBytes: row.sizeBytes, createdAt: row.startedAt, expiresAt: made.expiresAt });
    const file = await get(undefined, `/service/share/backup/file/shared/download${query}`);
    expect(sha(file.rawPayload)).toBe(row.sha256);
    expect(await logged('link')).toContain(`admin: download link for backup ${row.name}`);
    expect(await logged('download')).toContain(`: download backup ${row.name} by a link of user 1`);
  });

  it('refuses a changed, forged or expired link, and a name that is no backup', async () => {
    const [row] = (await get(root, '/service/share/backup/file/list')).json().result.rows;
    const link = await signLink(t.db, row.name, 1);
    const q = (l: Record<string, unknown>) => new URLSearchParams(Object.entries(l).map(([k, v]) => [k, String(v)])).toString();
    const answer = async (l: Record<string, unknown>) => {
      const res = await get(undefined, `/service/share/backup/file/shared/download?${q(l)}`);
      return res.statusCode === 200 ? { status: 200, sha256: sha(res.rawPayload) } : { status: res.statusCode, code: res.json().state.code, msg: res.json().state.msg };
    };
    expect(await answer(link)).toEqual({ status: 200, sha256: row.sha256 });
    expect(await answer({ ...link, exp: link.exp + 1 })).toMatchObject({ status: 400, msg: expect.stringContaining('not valid') });
    expect(await answer({ ...link, by: 2 })).toMatchObject({ status: 400 });
    expect(await answer({ ...link, sig: link.sig.slice(0, -2) + (link.sig.endsWith('AA') ? 'BB' : 'AA') })).toMatchObject({ status: 400 });
    expect(await answer({ ...link, name: '../../../etc/passwd' })).toMatchObject({ status: 400 });
    const old = await signLink(t.db, row.name, 1, Date.now() - 25 * 3600_000);
    expect(await answer(old)).toMatchObject({ status: 410, msg: expect.stringContaining('expired') });
    // A genuine link to a file that is gone.
    await rm(path.join(dir, row.name));
    expect(await answer(link)).toMatchObject({ status: 404, msg: expect.stringContaining('not in the backup folder') });
    expect((await get(root, '/service/share/backup/file/list')).json().result.rows[0].present).toBe(false);
  });
});

describe('the job', () => {
  it('runs daily at BACKUP_AT; "run now" writes a backup and the schedule keeps its time of day', async () => {
    // The console's configuration names its database; the test database is made per file.
    const jobs = await startBackupJob({ ...t.deps, config: { ...t.config, databaseUrl: t.databaseUrl } }, { info: () => undefined, error: () => undefined }, 60_000);
    try {
      const due = async () => (await t.db.one<{ at: Date; last_state: string | null; last_result: string }>(`SELECT next_run_at AS at, last_state, last_result FROM job_schedule WHERE name = $1`, [BACKUP_JOB]))!;
      const expected = nextAt(t.config.backupAt, Date.now()).getTime();
      expect(new Date((await due()).at).getTime()).toBe(expected);
      const before = (await readdir(dir)).length;
      await jobs.runner.runNow(BACKUP_JOB);
      await jobs.runner.kick();
      const after = await due();
      expect(after, after.last_result).toMatchObject({ last_state: 'done' });
      expect(JSON.parse(after.last_result)).toMatchObject({ kind: t.databaseUrl ? 'pg_dump' : 'pglite', deleted: 0 });
      expect((await readdir(dir)).length).toBe(before + 2);
      expect(new Date(after.at).getTime()).toBe(nextAt(t.config.backupAt, Date.now()).getTime());
    } finally {
      await jobs.stop();
    }
  });

  it('the next time of day is today if it is still ahead, else tomorrow', () => {
    const morning = new Date(2025, 2, 1, 1, 30).getTime();
    expect(nextAt('02:00', morning)).toEqual(new Date(2025, 2, 1, 2, 0));
    expect(nextAt('02:00', new Date(2025, 2, 1, 2, 0).getTime())).toEqual(new Date(2025, 2, 2, 2, 0));
    expect(nextAt('23:59', new Date(2025, 11, 31, 23, 59, 30).getTime())).toEqual(new Date(2026, 0, 1, 23, 59));
  });

  it('a failed run is recorded and shown, and leaves the backups before it as they were', async () => {
    const good = await runBackup(target);
    const files = (await readdir(dir)).sort();
    // pg_dump of a database that does not exist / a PGlite backup without the embedded database: both fail.
    const broken: BackupTarget = t.databaseUrl ? { ...target, databaseUrl: t.databaseUrl.replace(/\/[^/]+$/, '/cw_no_such_db') } : { ...target, db: { ...t.db, dumpDataDir: undefined } };
    await expect(runBackup(broken)).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(files);
    expect(sha(await readFile(good.path))).toBe(good.sha256);
    const [last] = (await get(root, '/service/share/backup/file/list')).json().result.rows;
    expect(last).toMatchObject({ outcome: 'failed', present: false, sha256: null });
    expect(last.error).not.toBe('');
  });

  it('deletes backups older than backup_retention_years, never the newest good one', async () => {
    const year = 365.25 * 86_400_000;
    const old = await runBackup(target, { now: Date.now() - 6 * year });
    const recent = await runBackup(target, { now: Date.now() - 4 * year });
    const newest = await runBackup(target);
    expect(newest.deleted).toBeGreaterThanOrEqual(1);
    const names = await readdir(dir);
    expect(names).not.toContain(old.name);
    expect(names).not.toContain(`${old.name}.sha256`);
    expect(names).toEqual(expect.arrayContaining([recent.name, newest.name]));
    const row = await t.db.one<{ deleted: boolean }>(`SELECT deleted_at IS NOT NULL AS deleted FROM backup_file WHERE name = $1`, [old.name]);
    expect(row!.deleted).toBe(true);
    // With every backup past the limit, the newest good one stays.
    const { deleteExpired } = await import('./backup.service.js');
    expect(await deleteExpired(target, Date.now() + 10 * year)).toBeGreaterThan(0);
    expect(await readdir(dir)).toContain(newest.name);
  });

  it('a name is never given twice, even when the first file is gone', async () => {
    const at = Date.UTC(2030, 0, 1, 2, 0, 0);
    const first = await runBackup(target, { now: at });
    await rm(first.path);
    const second = await runBackup(target, { now: at });
    expect(first.name).toMatch(/^coldwatch-20300101T020000Z-/);
    expect(second.name).toBe(first.name.replace('Z-', 'Z-2-'));
  });

  it('a partial file left by a crash is removed once it is old, never while young', async () => {
    const { removeStalePartials } = await import('./files.js');
    await writeFile(path.join(dir, 'coldwatch-20000101T000000Z-logical.sql.gz.partial'), 'x');
    expect(await removeStalePartials(dir, Date.now())).toBe(0);
    expect(await removeStalePartials(dir, Date.now() + 25 * 3600_000)).toBe(1);
  });
});

describe('the scene export', () => {
  const sheets = async (body: Buffer) => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(body as unknown as ArrayBuffer);
    return Object.fromEntries(wb.worksheets.map((ws) => [ws.name, ws.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1))]));
  };

  it("gives the customer its scene's monitoring points, sensors, readings and exceptions", async () => {
    await t.db.query(`INSERT INTO exception_record (customer_id, carrier_id, sensor_id, type, category, start_ts, reason, measures, status) VALUES ($1, $2, $3, 'data', 'temp_high', now() - interval '1 hour', 'door open', 'closed the door', 1)`, [
      a.customerId,
      a.carrierId,
      a.sensorId,
    ]);
    const res = await get(alpha, `/service/share/backup/scene?sceneId=${a.sceneId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="scene-\d+-\d{8}-\d{8}\.xlsx"$/);
    const book = await sheets(res.rawPayload);
    expect(Object.keys(book)).toEqual(['Scene', 'Monitoring points', 'Sensors', 'Exceptions', 'Readings']);
    expect(book['Sensors'].map((r) => r[0])).toEqual(['Sensor number', a.devNo]);
    const readings = await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE sensor_id = $1 AND ts > now() - interval '30 days'`, [a.sensorId]);
    expect(book['Readings'].length - 1).toBe(readings!.n);
    expect(readings!.n).toBeGreaterThan(0);
    expect(book['Exceptions'][1]).toEqual(expect.arrayContaining(['Temperature above the upper limit', 'Processed', 'door open', 'closed the door']));
  });

  it("another customer's scene answers 404 and nothing of it", async () => {
    const res = await get(beta, `/service/share/backup/scene?sceneId=${a.sceneId}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Alpha');
  });

  it('a period longer than 92 days is refused', async () => {
    const end = Date.now();
    const res = (await get(alpha, `/service/share/backup/scene?sceneId=${a.sceneId}&startTime=${end - 93 * 86_400_000}&endTime=${end}`)).json();
    expect(res.state.code).not.toBe(200000);
    expect(JSON.stringify(res)).toContain('92 days');
    const startOnly = (await get(alpha, `/service/share/backup/scene?sceneId=${a.sceneId}&startTime=${end - 100 * 86_400_000}`)).json();
    expect(startOnly.state.msg).toContain('92 days');
  });
});
