import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { SCENE_EXPORT_DEFAULT_DAYS, SCENE_EXPORT_MAX_DAYS, translate, type Locale } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { msOf, msOrNull } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { paramError } from '../../platform/http/errors.js';
import { limitOf, rowInScope, subtreeIds } from '../shared/records.js';
import { exceptionLimitOf } from '../exception/exception.repository.js';
import { drained } from './stream.js';

/*
 * GET /service/share/backup/scene: one scene's records for the customer to keep, as an xlsx
 * workbook: the scene (with every scene below it), its monitoring points, their sensors, the
 * readings of those sensors over a period, and the exceptions with their handling. Everything
 * is read through the caller's scope and scene limit: a scene the caller cannot see answers 404
 * before anything is written.
 *
 * Bounded: the period is at most SCENE_EXPORT_MAX_DAYS (92) days, default the last 30; the
 * workbook is written as it is read (exceljs' streaming writer, readings fetched 5,000 at a
 * time per sensor and written only as fast as the client takes them), so its size is not held
 * in memory; readings fill sheets of at most 1,000,000 rows (Excel's limit is 1,048,576).
 */

const PAGE = 5_000;
const SHEET_ROWS = 1_000_000;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD HH:mm:ss` at the UTC offset `tz` (`+08:00`), the customer's time zone. */
export function localTime(ms: number | null, tz: string): string {
  if (ms === null) return '';
  const sign = tz.startsWith('-') ? -1 : 1;
  const [h, m] = tz.slice(1).split(':').map(Number);
  return new Date(ms + sign * (h * 60 + m) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

export interface ScenePeriod {
  startTime?: number;
  endTime?: number;
}

/** The period asked for, defaulted and held to the limit (the contract checks it when both ends are given). */
export function periodOf(q: ScenePeriod, now: number): { start: number; end: number } {
  const end = q.endTime ?? now;
  const start = q.startTime ?? end - SCENE_EXPORT_DEFAULT_DAYS * DAY_MS;
  if (start > end || end - start > SCENE_EXPORT_MAX_DAYS * DAY_MS) throw paramError('errors.backup.sceneSpan');
  return { start, end };
}

/**
 * Checks the scene and reads what is small (404 or 400 before any byte is sent), then answers
 * the file name and the workbook's stream, which is written as the client reads it.
 */
export async function exportScene(db: Db, scope: Scope, q: ScenePeriod & { sceneId: number }, locale: Locale, now = Date.now()) {
  const k = scoped(db, scope);
  await rowInScope(k, scope, 'scene', q.sceneId);
  const { start, end } = periodOf(q, now);
  const scene = await k
    .selectFrom('scene as s')
    .innerJoin('customer as c', 'c.id', 's.customer_id')
    .select(['s.label', 's.code', 'c.name as customer', 'c.time_zone as tz'])
    .where('s.id', '=', q.sceneId)
    .executeTakeFirstOrThrow();
  // The subtree's carriers, held to the limit by limitOf (a limited caller's subtree may reach scenes outside it).
  const sceneIds = await subtreeIds(k, q.sceneId);
  const carriers = await k
    .selectFrom('carrier as t')
    .innerJoin('scene as s', 's.id', 't.scene_id')
    .select(['t.id', 't.name', 't.type', 't.status', 's.label as scene', 't.temp_min', 't.temp_max', 't.hum_min', 't.hum_max'])
    .where('t.scene_id', 'in', sceneIds)
    .where((eb) => limitOf(eb, scope, 'carrier'))
    .orderBy('t.id')
    .execute();
  const carrierIds = carriers.map((c) => c.id);
  const sensors = carrierIds.length
    ? await k
        .selectFrom('sensor as t')
        .select(['t.id', 't.dev_no', 't.type', 't.status', 't.carrier_id', 't.description', msOrNull('t.calib_expiry').as('calibExpiry')])
        .where('t.carrier_id', 'in', carrierIds)
        .orderBy('t.id')
        .execute()
    : [];
  const sensorIds = sensors.map((s) => s.id);
  const carrierName = new Map(carriers.map((c) => [c.id, c.name]));
  const devNo = new Map(sensors.map((s) => [s.id, s.dev_no]));
  const t = (key: string) => translate(`errors.backup.${key}`, locale);
  const at = (ms: number | null) => localTime(ms, scene.tz);

  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = (name: string, columns: string[]) => {
    const ws = book.addWorksheet(name);
    ws.addRow(columns.map((c) => t(`col.${c}`))).commit();
    return ws;
  };

  const write = async () => {
    // The small sheets first, each finished before the next begins (the writer zips one at a time).
    const info = sheet(t('sheet.scene'), ['field', 'value']);
    for (const [f, v] of [
      ['customer', scene.customer],
      ['scene', scene.label],
      ['sceneCode', scene.code],
      ['from', at(start)],
      ['to', at(end)],
      ['timeZone', `UTC${scene.tz}`],
      ['exportedAt', at(now)],
      ['exportedBy', scope.account],
    ]) info.addRow([t(`col.${f}`), v]).commit();
    info.commit();

    const cs = sheet(t('sheet.carriers'), ['carrier', 'scene', 'type', 'status', 'tempMin', 'tempMax', 'humMin', 'humMax']);
    for (const c of carriers) cs.addRow([c.name, c.scene, t(`carrierType.${c.type}`), t(`carrierStatus.${c.status}`), c.temp_min, c.temp_max, c.hum_min, c.hum_max]).commit();
    cs.commit();

    const ss = sheet(t('sheet.sensors'), ['devNo', 'carrier', 'type', 'status', 'calibExpiry', 'description']);
    for (const s of sensors) ss.addRow([s.dev_no, carrierName.get(s.carrier_id!) ?? '', s.type, t(`deviceStatus.${s.status}`), at(s.calibExpiry), s.description]).commit();
    ss.commit();

    const es = sheet(t('sheet.exceptions'), ['carrier', 'devNo', 'category', 'start', 'end', 'durationS', 'firstValue', 'peakValue', 'limitMin', 'limitMax', 'status', 'reason', 'measures']);
    if (carrierIds.length) {
      const rows = await k
        .selectFrom('exception_record as e')
        .select(['e.carrier_id', 'e.sensor_id', 'e.category', msOf('e.start_ts').as('startTs'), msOrNull('e.end_ts').as('endTs'), 'e.duration_s', 'e.first_value', 'e.peak_value', 'e.limit_min', 'e.limit_max', 'e.status', 'e.reason', 'e.measures'])
        .where((eb) => eb.or([eb('e.carrier_id', 'in', carrierIds), ...(sensorIds.length ? [eb('e.sensor_id', 'in', sensorIds)] : [])]))
        .where((eb) => exceptionLimitOf(eb, scope))
        .where('e.start_ts', '<', new Date(end))
        .where(sql<boolean>`coalesce(e.end_ts, now()) >= ${new Date(start)}`)
        .orderBy('e.start_ts')
        .execute();
      for (const e of rows) {
        es.addRow([carrierName.get(e.carrier_id!) ?? '', devNo.get(e.sensor_id!) ?? '', t(`category.${e.category}`), at(e.startTs), at(e.endTs), e.duration_s, e.first_value, e.peak_value, e.limit_min, e.limit_max, t(`status.${e.status}`), e.reason, e.measures]).commit();
      }
    }
    es.commit();

    // Readings last, per sensor in time order, a page at a time.
    const columns = ['devNo', 'carrier', 'time', 'temp', 'hum', 'gas', 'door'];
    let part = 1;
    let rs = sheet(t('sheet.readings'), columns);
    let inSheet = 0;
    for (const s of sensors) {
      let after: string | undefined;
      for (;;) {
        const page = await k
          .selectFrom('reading as r')
          .select([msOf('r.ts').as('ms'), sql<string>`r.ts::text`.as('ts'), 'r.temp', 'r.hum', 'r.gas', 'r.door'])
          .where('r.sensor_id', '=', s.id)
          .where('r.ts', '>=', new Date(start))
          .where('r.ts', '<', new Date(end))
          // The stored time as text: a page starts exactly after the last row, whatever its precision.
          .$if(after !== undefined, (qb) => qb.where(sql<boolean>`r.ts > ${after}::timestamptz`))
          .orderBy('r.ts')
          .limit(PAGE)
          .execute();
        for (const r of page) {
          if (inSheet === SHEET_ROWS) {
            rs.commit();
            rs = sheet(`${t('sheet.readings')} ${++part}`, columns);
            inSheet = 0;
          }
          rs.addRow([s.dev_no, carrierName.get(s.carrier_id!) ?? '', at(r.ms), r.temp, r.hum, r.gas, r.door]).commit();
          inSheet++;
        }
        // Only as fast as the client takes the file, so a slow download does not fill the memory.
        await drained(out);
        if (page.length < PAGE) break;
        after = page[page.length - 1].ts;
      }
    }
    rs.commit();
    await book.commit();
  };
  // Once the answer has begun, a failure can only cut it short: the client sees a broken file.
  write().catch((err: Error) => out.destroy(err));

  const day = (ms: number) => localTime(ms, scene.tz).slice(0, 10).replace(/-/g, '');
  return { filename: `scene-${q.sceneId}-${day(start)}-${day(end)}.xlsx`, stream: out };
}
