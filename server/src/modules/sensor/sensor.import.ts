import type { Kysely } from 'kysely';
import { Code, deviceNo, gatewaySn, sampleIntervalSeconds, SENSOR_TYPES, translate, type Locale, type SensorType } from '@coldwatch/contract';
import { disabledTypes, sensorTypeOffered } from '../type/type.repository.js';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { takenOf } from '../../platform/db/unique.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/errors.js';
import { readSheet, writeTemplate } from '../../platform/xlsx/sheet.js';
import { limitOf } from '../dm/records.js';
import { checkHumidityZone } from '../carrier/carrier.repository.js';

/**
 * Sensor import (spec §7 sensor/importSensor, §5 "import files must be xlsx"): a file with any
 * bad row is refused whole, every bad row and field named; nothing is half imported.
 */

const COLUMNS = ['devNo', 'type', 'gatewaySn', 'carrier', 'sampleInterval', 'description'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: Column[] = ['devNo', 'type', 'gatewaySn'];
const LOCALES: Locale[] = ['zh-CN', 'en-US'];
const headerOf = (c: Column, l: Locale) => translate(`errors.import.sensorColumn.${c}`, l);

/** The column of each header cell, recognised in either language (a file made in Chinese imports for an English user). */
function mapHeader(header: string[]): Map<Column, number> {
  const at = new Map<Column, number>();
  header.forEach((h, i) => {
    const c = COLUMNS.find((col) => LOCALES.some((l) => headerOf(col, l) === h));
    if (c && !at.has(c)) at.set(c, i);
  });
  if (REQUIRED.some((c) => !at.has(c))) throw new AppError(Code.FAILED, 'errors.import.template');
  return at;
}

export interface ImportRow {
  devNo: string;
  type: SensorType;
  gatewayId: number;
  carrierId: number | null;
  sampleInterval: number;
  description: string;
}

/** Bad rows are reported at most this many fields at once (the count says how many in all). */
const MAX_REPORTED = 200;

export async function importSensors(q: Queryable, scope: Scope, data: Buffer, customerId?: number): Promise<{ imported: number; devNos: string[] }> {
  const { header, rows } = await readSheet(data);
  const col = mapHeader(header);
  if (!rows.length) throw new AppError(Code.FAILED, 'errors.import.empty');
  const k = scoped(q, scope);
  const owner = targetCustomer(scope, customerId);
  const cell = (cells: string[], c: Column) => (col.has(c) ? (cells[col.get(c)!] ?? '').trim() : '');

  // Look-ups in a few queries, not per row: the customer's gateways and carriers in the caller's limit, the taken numbers.
  const gateways = new Map(
    (await k.selectFrom('gateway as t').select(['t.id', 't.sn']).where('t.customer_id', '=', owner).where((eb) => limitOf(eb, scope, 'gateway')).execute()).map((g) => [g.sn, g.id]),
  );
  const carriers = new Map<string, number[]>();
  for (const c of await k.selectFrom('carrier as t').select(['t.id', 't.name']).where('t.customer_id', '=', owner).where((eb) => limitOf(eb, scope, 'carrier')).execute()) {
    carriers.set(c.name, [...(carriers.get(c.name) ?? []), c.id]);
  }
  const numbers = rows.map((r) => cell(r.cells, 'devNo'));
  const taken = await takenOf(q, 'sensor', numbers.filter((n) => deviceNo.safeParse(n).success));
  const off = await disabledTypes(q);

  const errors: Record<string, string> = {};
  let bad = 0;
  const fail = (row: number, c: Column, key: string) => {
    bad++;
    if (Object.keys(errors).length < MAX_REPORTED) errors[`${row}.${c}`] = key;
  };
  const seen = new Map<string, number>();
  const out: ImportRow[] = [];
  for (const { row, cells } of rows) {
    const devNo = cell(cells, 'devNo');
    const type = cell(cells, 'type');
    const sn = cell(cells, 'gatewaySn').toUpperCase().replace(/[:\-\s]/g, '');
    const carrierName = cell(cells, 'carrier');
    const interval = cell(cells, 'sampleInterval');
    const description = cell(cells, 'description');
    const before = bad;
    if (!deviceNo.safeParse(devNo).success) fail(row, 'devNo', devNo ? 'errors.rule.deviceNo' : 'errors.rule.required');
    else if (seen.has(devNo)) fail(row, 'devNo', 'errors.import.duplicateInFile');
    else if (taken.has(devNo)) fail(row, 'devNo', 'errors.exists.number');
    seen.set(devNo, row);
    if (!(SENSOR_TYPES as readonly string[]).includes(type)) fail(row, 'type', type ? 'errors.rule.sensorType' : 'errors.rule.required');
    else if (!sensorTypeOffered(off, type)) fail(row, 'type', 'errors.rule.typeDisabled');
    if (!gatewaySn.safeParse(sn).success) fail(row, 'gatewaySn', sn ? 'errors.rule.gatewaySn' : 'errors.rule.required');
    else if (!gateways.has(sn)) fail(row, 'gatewaySn', 'errors.import.gatewayUnknown');
    let carrierId: number | null = null;
    if (carrierName) {
      const ids = carriers.get(carrierName) ?? [];
      if (ids.length === 0) fail(row, 'carrier', 'errors.import.carrierUnknown');
      else if (ids.length > 1) fail(row, 'carrier', 'errors.import.carrierAmbiguous');
      else carrierId = ids[0];
    } else if (scope.sceneIds !== null) fail(row, 'carrier', 'errors.import.carrierRequired');
    const seconds = interval === '' ? 60 : Number(interval);
    if (!sampleIntervalSeconds.safeParse(seconds).success) fail(row, 'sampleInterval', 'errors.rule.sampleInterval');
    if (description.length > 250) fail(row, 'description', 'errors.rule.maxLength250');
    if (bad === before) out.push({ devNo, type: type as SensorType, gatewayId: gateways.get(sn)!, carrierId, sampleInterval: seconds, description });
  }
  if (bad) throw new AppError(Code.PARAM_ERROR, 'errors.import.badRows', 400, errors, { count: bad });

  await insertAll(k, owner, out);
  // §5: a carrier whose sensors would all be thermometers cannot keep a humidity zone.
  for (const id of new Set(out.map((r) => r.carrierId).filter((c): c is number => c !== null))) await checkHumidityZone(k, id, 'carrier');
  return { imported: out.length, devNos: out.map((r) => r.devNo) };
}

async function insertAll(k: Kysely<DB>, customerId: number, rows: ImportRow[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    await k
      .insertInto('sensor')
      .values(
        rows.slice(i, i + 1000).map((r) => ({
          customer_id: customerId,
          dev_no: r.devNo,
          type: r.type,
          description: r.description,
          gateway_id: r.gatewayId,
          carrier_id: r.carrierId,
          sample_interval: r.sampleInterval,
        })),
      )
      .execute();
  }
}

/** The template in the caller's language: the header, an example row, and the sensor types on a second sheet. */
export function sensorTemplate(locale: Locale): Promise<Buffer> {
  return writeTemplate(
    translate('errors.import.sensorSheet', locale),
    COLUMNS.map((c) => headerOf(c, locale)),
    ['T0000001', 'zigbee_th', 'A1B2C3D4E5F6', translate('errors.import.exampleCarrier', locale), '60', ''],
    { title: translate('errors.import.typesSheet', locale), rows: SENSOR_TYPES.map((t) => [t, translate(`errors.import.sensorType.${t}`, locale)]) },
  );
}
