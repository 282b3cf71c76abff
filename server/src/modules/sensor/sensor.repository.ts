import { sql, type Kysely } from 'kysely';
import { calibNoticeOk, Code, isClimateSensor, NOT_CLIMATE_SENSOR_TYPES, type ConfigStatus, type SensorBody, type SensorKind, type SensorType } from '@coldwatch/contract';
import { checkOffered } from '../type/type.repository.js';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { deviceNumberTaken } from '../dm/deviceNumber.js';
import { contains, msOf, msOrNull, paged, type AnyExpressionBuilder, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { conflict, notFound, paramError } from '../../platform/http/errors.js';
import { gatewayAndCarrier, idsInScope, inUse, mapUnique } from '../shared/records.js';
import { checkHumidityZone } from '../carrier/carrier.repository.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { transmitInterval } from '../param/param.repository.js';

/** Stored readings are `real`: round to the two decimals the devices send, so 4.52 is not 4.5199999. */
const r2 = (ref: string) => sql<number | null>`round(${sql.ref(ref)}::numeric, 2)::float8`;

/** A sensor (alias x) with its gateway (g) and the latest values ingest keeps on the sensor row. */
export function sensorLiveSelect(k: Kysely<DB>) {
  return k
    .selectFrom('sensor as x')
    .innerJoin('gateway as g', 'g.id', 'x.gateway_id')
    .select([
      'x.id',
      'x.dev_no as devNo',
      sql<SensorType>`x.type`.as('type'),
      'x.status',
      'x.carrier_id as carrierId',
      'x.gateway_id as gatewayId',
      'g.sn as gatewaySn',
      msOrNull('x.last_ts').as('lastTs'),
      r2('x.last_temp').as('temp'),
      r2('x.last_hum').as('hum'),
      r2('x.last_volt').as('volt'),
      'x.last_rssi as rssi',
      'x.last_lqi as lqi',
      r2('x.last_gas').as('gas'),
      'x.last_door as door',
    ]);
}

function sensorSelect(k: Kysely<DB>) {
  return sensorLiveSelect(k)
    .innerJoin('customer as cu', 'cu.id', 'x.customer_id')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select([
      sql<string | null>`to_char(x.calib_expiry, 'YYYY-MM-DD')`.as('calibExpiry'),
      msOrNull('x.calib_notice').as('calibNotice'),
      msOrNull('x.lent_until').as('lentUntil'),
      'x.gas_code as gasCode',
      'x.tz',
    ])
    // Spec §3 config status: its latest configuration command's, this holder's (a lent sensor's owner configured it before).
    .select((eb) =>
      eb
        .case(
          eb
            .selectFrom('device_command as d')
            .select('d.status')
            .whereRef('d.sensor_id', '=', 'x.id')
            .whereRef('d.customer_id', '=', 'x.customer_id')
            .where('d.kind', '=', 'config')
            .orderBy('d.id', 'desc')
            .limit(1),
        )
        .when('prepare')
        .then('configuring')
        .when('issuing')
        .then('configuring')
        .when('end')
        .then('configured')
        .when('fail')
        .then('fail')
        .else('wait')
        .end()
        .$castTo<ConfigStatus>()
        .as('configStatus'),
    )
    .select(['x.description', 'x.sample_interval as sampleInterval', 'x.customer_id as customerId', 'cu.name as customerName', 'c.name as carrierName', 'g.name as gatewayName', msOf('x.created_at').as('createdAt')]);
}

export interface SensorFilter extends PageInput {
  devNo?: string;
  type?: SensorType;
  status?: number;
  gatewayId?: number;
  carrierId?: number;
  bound?: boolean;
  borrowed?: boolean;
  customerId?: number;
  kind?: SensorKind;
  gasCode?: string;
}

/** The rows of a kind of the device menu (radio sensors, gas detectors, door magnets). */
const kindOf = (eb: AnyExpressionBuilder, kind: SensorKind, alias = 'x') =>
  kind === 'sensor' ? eb(`${alias}.type`, 'not in', NOT_CLIMATE_SENSOR_TYPES) : eb(`${alias}.type`, '=', kind);

const SORTABLE = { devNo: 'x.dev_no', type: 'x.type', status: 'x.status', lastTs: 'x.last_ts', createdAt: 'x.created_at' };

export function page(q: Queryable, scope: Scope, f: SensorFilter) {
  const k = scoped(q, scope);
  // On the sensor's own columns (alias x) only, so that the count can run without the joins.
  const where = (eb: AnyExpressionBuilder) => {
    const and = [sceneLimit(eb, scope, 'sensor', 'x')];
    if (f.devNo) and.push(eb('x.dev_no', 'ilike', contains(f.devNo)));
    if (f.type) and.push(eb('x.type', '=', f.type));
    if (f.status !== undefined) and.push(eb('x.status', '=', f.status));
    if (f.gatewayId) and.push(eb('x.gateway_id', '=', f.gatewayId));
    if (f.carrierId) and.push(eb('x.carrier_id', '=', f.carrierId));
    if (f.bound !== undefined) and.push(eb('x.carrier_id', f.bound ? 'is not' : 'is', null));
    if (f.kind) and.push(kindOf(eb, f.kind));
    if (f.gasCode) and.push(eb('x.gas_code', '=', f.gasCode));
    if (f.borrowed !== undefined) and.push(eb('x.lent_from', f.borrowed ? 'is not' : 'is', null));
    if (f.customerId) and.push(eb('x.customer_id', '=', f.customerId));
    return eb.and(and);
  };
  // Counted and paged on the sensor rows alone: the joins only add columns (a sensor's gateway,
  // carrier and customer are its own customer's), and through them the count of 10,000 sensors
  // cost three times as much (docs/performance.md).
  return paged(sensorSelect(k).where(where), f, { sortable: SORTABLE, by: 'x.id', base: { from: k.selectFrom('sensor as x').where(where), key: 'x.id' } });
}

export function detail(q: Queryable, scope: Scope, id: number) {
  return sensorSelect(scoped(q, scope))
    .where('x.id', '=', id)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .executeTakeFirst();
}

/** Sensors of one type in scope, for pickers (spec §7 `/service/sensor/lst/{type}`). */
export function listOfType(q: Queryable, scope: Scope, type: SensorType) {
  return scoped(q, scope)
    .selectFrom('sensor as x')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.id', 'x.dev_no as devNo', sql<SensorType>`x.type`.as('type'), 'x.status', 'x.carrier_id as carrierId', 'c.name as carrierName', 'x.gateway_id as gatewayId'])
    .where('x.type', '=', type)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .orderBy('x.dev_no')
    .execute();
}

/** Device numbers are unique on the whole platform (device protocol): ingest finds a reading's sensor by it alone. */
const numberExists = () => conflict(Code.CODE_EXISTS, 'errors.exists.number');


const columns = (b: SensorBody) => ({
  dev_no: b.devNo,
  type: b.type,
  description: b.description,
  gateway_id: b.gatewayId,
  carrier_id: b.carrierId,
  sample_interval: b.sampleInterval,
  calib_expiry: b.calibExpiry,
  calib_notice: b.calibNotice === null ? null : new Date(b.calibNotice),
  tz: b.tz,
  gas_code: b.type === 'gas' ? b.gasCode : null,
});

/** A gas detector names its gas (spec §3); the catalogue may have switched that gas off. */
function checkGas(b: SensorBody) {
  if (b.type === 'gas' && !b.gasCode) throw paramError('errors.rule.gasCodeRequired', { gasCode: 'errors.rule.gasCodeRequired' });
}

/** The kind pages (/device/gas, /device/magnetism) add and change only their own type. */
function checkKind(b: SensorBody, kind: SensorKind | undefined) {
  if (kind && kind !== 'sensor' && b.type !== kind) throw paramError('errors.rule.sensorType', { type: 'errors.rule.sensorType' });
}

/** §5: a calibration notice is not set in the past (an unchanged one, perhaps already sent, may stay). */
function checkNotice(b: SensorBody, current: number | null = null) {
  if (b.calibNotice !== current && !calibNoticeOk(b.calibNotice)) throw paramError('errors.rule.calibNoticePast', { calibNotice: 'errors.rule.calibNoticePast' });
}

export async function add(q: Queryable, scope: Scope, body: SensorBody, kind?: SensorKind) {
  // Added without an interval: the platform's default transmission interval (parameter sensor_interval_seconds).
  const b = { ...body, sampleInterval: body.sampleInterval ?? (await transmitInterval(q, 'sensor')) };
  checkKind(b, kind);
  checkNotice(b);
  checkGas(b);
  await checkOffered(q, 'sensor', b);
  const k = scoped(q, scope);
  const customerId = await gatewayAndCarrier(k, scope, b);
  if (await deviceNumberTaken(q, b.devNo)) throw numberExists();
  const row = await mapUnique(() => k.insertInto('sensor').values({ customer_id: customerId, ...columns(b) }).returning('id').executeTakeFirstOrThrow(), {
    sensor_dev_no: numberExists(),
  });
  // A gas detector or door magnet changes nothing of what the carrier measures.
  if (b.carrierId && isClimateSensor(b.type)) await checkHumidityZone(k, b.carrierId, 'carrierId');
  return { id: row.id };
}

/** Returns the number before the change: ingest forgets both. */
export async function update(q: Queryable, scope: Scope, b: SensorBody & { id: number }, kind?: SensorKind) {
  checkKind(b, kind);
  checkGas(b);
  const k = scoped(q, scope);
  const cur = await k
    .selectFrom('sensor as t')
    .select(['t.dev_no', 't.customer_id', 't.type', 't.gas_code', 't.lent_from', msOrNull('t.calib_notice').as('calibNotice')])
    .where('t.id', '=', b.id)
    .where((eb) => sceneLimit(eb, scope, 'sensor'))
    .$if(!!kind, (qb) => qb.where((eb) => kindOf(eb, kind!, 't')))
    .forUpdate()
    .executeTakeFirst();
  if (!cur) throw notFound();
  // A borrowed sensor goes home as it came: the borrower binds it, but does not renumber or retype it.
  if (cur.lent_from !== null && (b.devNo !== cur.dev_no || b.type !== cur.type)) throw paramError('errors.loan.borrowedFixed', { [b.devNo !== cur.dev_no ? 'devNo' : 'type']: 'errors.loan.borrowedFixed' });
  checkNotice(b, cur.calibNotice);
  await checkOffered(q, 'sensor', b, { type: cur.type, gasCode: cur.gas_code });
  await gatewayAndCarrier(k, scope, b, cur.customer_id);
  if (await deviceNumberTaken(q, b.devNo, { table: 'sensor', id: b.id })) throw numberExists();
  await mapUnique(() => k.updateTable('sensor').set(columns(b)).where('id', '=', b.id).where('customer_id', '=', cur.customer_id).execute(), {
    sensor_dev_no: numberExists(),
  });
  // A gas detector or door magnet changes nothing of what the carrier measures.
  if (b.carrierId && isClimateSensor(b.type)) await checkHumidityZone(k, b.carrierId, 'carrierId');
  return { id: b.id, oldDevNo: cur.dev_no };
}

/** Readings stay until retention removes them; the alarm hand-over row would point at nothing, so it goes. */
export async function remove(q: Queryable, scope: Scope, ids: number[], kind?: SensorKind) {
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'sensor', ids);
  if (kind) await idsOfKind(k, ids, kind);
  if (await k.selectFrom('sensor').select('id').where('id', 'in', ids).where('lent_from', 'is not', null).limit(1).executeTakeFirst()) throw inUse('borrowed');
  await k.deleteFrom('alarm_queue').where('sensor_id', 'in', ids).execute();
  const gone = await k.deleteFrom('sensor').where('id', 'in', ids).returning('dev_no').execute();
  return { deleted: gone.length, devNos: gone.map((s) => s.dev_no) };
}

/** Every id is a row of the kind (a kind page never touches another kind's rows): else 404. */
export async function idsOfKind(k: Kysely<DB>, ids: number[], kind: SensorKind) {
  const n = await k.selectFrom('sensor as x').select(sql<number>`count(*)::int`.as('n')).where('x.id', 'in', ids).where((eb) => kindOf(eb, kind)).executeTakeFirst();
  if ((n?.n ?? 0) !== new Set(ids).size) throw notFound();
}
