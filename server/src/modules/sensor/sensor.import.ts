import type { Kysely } from 'kysely';
import {
  CLIMATE_SENSOR_TYPES,
  Code,
  deviceNo,
  GAS_CODES,
  LOCALES,
  gatewaySn,
  sampleIntervalSeconds,
  sensorTypeOffered,
  translate,
  type GasCode,
  type Locale,
  type SensorKind,
  type SensorType,
} from '@coldwatch/contract';
import { disabledTypes } from '../type/type.repository.js';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { deviceNumbersTaken } from '../dm/deviceNumber.js';
import { targetCustomer, type Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/errors.js';
import { readSheet, writeTemplate } from '../../platform/xlsx/sheet.js';
import { checkHumidityZone } from '../carrier/carrier.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { transmitInterval } from '../param/param.repository.js';

/**
 * Imports of spec §7 (sensor/importSensor, gas/import, magnetism/import; §5 "import files must
 * be xlsx"): a file with any bad row is refused whole, every bad row and field named; nothing is
 * half imported. One template per kind: radio sensors name their type, gas detectors their gas,
 * door magnets neither (their type is the kind).
 */

const ALL = ['devNo', 'type', 'gasCode', 'gatewaySn', 'carrier', 'sampleInterval', 'description'] as const;
type Column = (typeof ALL)[number];
const COLUMNS: Record<SensorKind, Column[]> = {
  sensor: ['devNo', 'type', 'gatewaySn', 'carrier', 'sampleInterval', 'description'],
  gas: ['devNo', 'gasCode', 'gatewaySn', 'carrier', 'sampleInterval', 'description'],
  magnet: ['devNo', 'gatewaySn', 'carrier', 'sampleInterval', 'description'],
};
const REQUIRED: Record<SensorKind, Column[]> = { sensor: ['devNo', 'type', 'gatewaySn'], gas: ['devNo', 'gasCode', 'gatewaySn'], magnet: ['devNo', 'gatewaySn'] };
const headerOf = (c: Column, l: Locale) => translate(`errors.import.sensorColumn.${c}`, l);

/**
 * The column of each header cell, recognised in either language (a file made in Chinese imports
 * for an English user). Another kind's template (a column this kind has not) is the wrong one.
 */
function mapHeader(header: string[], kind: SensorKind): Map<Column, number> {
  const at = new Map<Column, number>();
  header.forEach((h, i) => {
    const c = ALL.find((col) => LOCALES.some((l) => headerOf(col, l) === h));
    if (c && !at.has(c)) at.set(c, i);
  });
  if (REQUIRED[kind].some((c) => !at.has(c)) || [...at.keys()].some((c) => !COLUMNS[kind].includes(c))) throw new AppError(Code.FAILED, 'errors.import.template');
  return at;
}

export interface ImportRow {
  devNo: string;
  type: SensorType;
  gasCode: GasCode | null;
  gatewayId: number;
  carrierId: number | null;
  sampleInterval: number;
  description: string;
}

/** Bad rows are reported at most this many fields at once (the count says how many in all). */
const MAX_REPORTED = 200;

export async function importSensors(q: Queryable, scope: Scope, data: Buffer, customerId?: number, kind: SensorKind = 'sensor'): Promise<{ imported: number; devNos: string[] }> {
  const { header, rows } = await readSheet(data);
  const col = mapHeader(header, kind);
  if (!rows.length) throw new AppError(Code.FAILED, 'errors.import.empty');
  const k = scoped(q, scope);
  const owner = targetCustomer(scope, customerId);
  const cell = (cells: string[], c: Column) => (col.has(c) ? (cells[col.get(c)!] ?? '').trim() : '');

  // Look-ups in a few queries, not per row: the customer's gateways and carriers in the caller's limit, the taken numbers.
  const gateways = new Map(
    (await k.selectFrom('gateway as t').select(['t.id', 't.sn']).where('t.customer_id', '=', owner).where((eb) => sceneLimit(eb, scope, 'gateway')).execute()).map((g) => [g.sn, g.id]),
  );
  const carriers = new Map<string, number[]>();
  for (const c of await k.selectFrom('carrier as t').select(['t.id', 't.name']).where('t.customer_id', '=', owner).where((eb) => sceneLimit(eb, scope, 'carrier')).execute()) {
    carriers.set(c.name, [...(carriers.get(c.name) ?? []), c.id]);
  }
  const numbers = rows.map((r) => cell(r.cells, 'devNo'));
  const valid = numbers.filter((n) => deviceNo.safeParse(n).success);
  const taken = await deviceNumbersTaken(q, valid);
  const off = await disabledTypes(q);
  // A row without an interval: the platform's default transmission interval (parameter sensor_interval_seconds).
  const defaultInterval = await transmitInterval(q, 'sensor');

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
    const type = kind === 'sensor' ? cell(cells, 'type') : kind;
    const gas = cell(cells, 'gasCode');
    const sn = cell(cells, 'gatewaySn').toUpperCase().replace(/[:\-\s]/g, '');
    const carrierName = cell(cells, 'carrier');
    const interval = cell(cells, 'sampleInterval');
    const description = cell(cells, 'description');
    const before = bad;
    if (!deviceNo.safeParse(devNo).success) fail(row, 'devNo', devNo ? 'errors.rule.deviceNo' : 'errors.rule.required');
    else if (seen.has(devNo)) fail(row, 'devNo', 'errors.import.duplicateInFile');
    else if (taken.has(devNo)) fail(row, 'devNo', 'errors.exists.number');
    seen.set(devNo, row);
    if (kind === 'sensor') {
      if (!(CLIMATE_SENSOR_TYPES as readonly string[]).includes(type)) fail(row, 'type', type ? 'errors.rule.sensorType' : 'errors.rule.required');
      else if (!sensorTypeOffered(off, type)) fail(row, 'type', 'errors.rule.typeDisabled');
    } else if (kind === 'gas') {
      if (!(GAS_CODES as readonly string[]).includes(gas)) fail(row, 'gasCode', gas ? 'errors.rule.gasCode' : 'errors.rule.required');
      else if (!sensorTypeOffered(off, 'gas', gas)) fail(row, 'gasCode', 'errors.rule.typeDisabled');
    } else if (!sensorTypeOffered(off, type)) fail(row, 'devNo', 'errors.rule.typeDisabled');
    if (!gatewaySn.safeParse(sn).success) fail(row, 'gatewaySn', sn ? 'errors.rule.gatewaySn' : 'errors.rule.required');
    else if (!gateways.has(sn)) fail(row, 'gatewaySn', 'errors.import.gatewayUnknown');
    let carrierId: number | null = null;
    if (carrierName) {
      const ids = carriers.get(carrierName) ?? [];
      if (ids.length === 0) fail(row, 'carrier', 'errors.import.carrierUnknown');
      else if (ids.length > 1) fail(row, 'carrier', 'errors.import.carrierAmbiguous');
      else carrierId = ids[0];
    } else if (scope.sceneIds !== null) fail(row, 'carrier', 'errors.import.carrierRequired');
    const seconds = interval === '' ? defaultInterval : Number(interval);
    if (!sampleIntervalSeconds.safeParse(seconds).success) fail(row, 'sampleInterval', 'errors.rule.sampleInterval');
    if (description.length > 250) fail(row, 'description', 'errors.rule.maxLength250');
    if (bad === before) out.push({ devNo, type: type as SensorType, gasCode: kind === 'gas' ? (gas as GasCode) : null, gatewayId: gateways.get(sn)!, carrierId, sampleInterval: seconds, description });
  }
  if (bad) throw new AppError(Code.PARAM_ERROR, 'errors.import.badRows', 400, errors, { count: bad });

  await insertAll(k, owner, out);
  // §5: a carrier whose sensors would all be thermometers cannot keep a humidity zone.
  if (kind === 'sensor') for (const id of new Set(out.map((r) => r.carrierId).filter((c): c is number => c !== null))) await checkHumidityZone(k, id, 'carrier');
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
          gas_code: r.gasCode,
        })),
      )
      .execute();
  }
}

const EXAMPLE: Record<Column, string> = { devNo: 'T0000001', type: 'zigbee_th', gasCode: '0x04', gatewaySn: 'A1B2C3D4E5F6', carrier: '', sampleInterval: '60', description: '' };
const SHEET: Record<SensorKind, string> = { sensor: 'sensorSheet', gas: 'gasSheet', magnet: 'magnetSheet' };

/** The template of a kind in the caller's language: the header, an example row, and the types or gases it may name on a second sheet. */
export function sensorTemplate(locale: Locale, kind: SensorKind = 'sensor'): Promise<Buffer> {
  const example = COLUMNS[kind].map((c) => (c === 'carrier' ? translate('errors.import.exampleCarrier', locale) : c === 'devNo' && kind !== 'sensor' ? (kind === 'gas' ? 'G0000001' : 'M0000001') : EXAMPLE[c]));
  const codes: { title: string; rows: [string, string][] } =
    kind === 'gas'
      ? { title: translate('errors.import.gasCodesSheet', locale), rows: GAS_CODES.map((g) => [g, translate(`errors.import.gas.${g}`, locale)]) }
      : { title: translate('errors.import.typesSheet', locale), rows: (kind === 'sensor' ? CLIMATE_SENSOR_TYPES : (['magnet'] as const)).map((t) => [t, translate(`errors.import.sensorType.${t}`, locale)]) };
  return writeTemplate(translate(`errors.import.${SHEET[kind]}`, locale), COLUMNS[kind].map((c) => headerOf(c, locale)), example, codes);
}
