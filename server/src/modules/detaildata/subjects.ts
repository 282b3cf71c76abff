import type { SampleMode } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { valueSensors, type ValueCarrier } from '../history/carrierValues.js';

/*
 * What a detail-data query is about, found in the caller's scope and scene limit before any
 * reading is read: carriers (each with its running sensors, whose readings make its value) or
 * sensors (each with the carrier it serves, whose zone and invalid rules judge its readings).
 * One subject outside the scope makes the whole query 404, as a missing one does: nobody learns
 * which of a list exists elsewhere.
 */

export interface Zone {
  tempMin: number | null;
  tempMax: number | null;
  humMin: number | null;
  humMax: number | null;
}

export interface CarrierSubject extends ValueCarrier, Zone {
  name: string;
}

export interface SensorSubject extends Zone {
  id: number;
  devNo: string;
  customerId: number;
  carrierId: number | null;
  carrierName: string | null;
}

const carrierCols = ['c.id', 'c.customer_id as customerId', 'c.name', 'c.sample_mode as mode', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'] as const;

/** The caller's carriers by id, in the order asked, each with its running sensors. */
export async function carrierSubjects(q: Queryable, scope: Scope, ids: readonly number[]): Promise<CarrierSubject[]> {
  const rows = await scoped(q, scope)
    .selectFrom('carrier as c')
    .select([...carrierCols])
    .where('c.id', 'in', [...ids])
    .where((eb) => sceneLimit(eb, scope, 'carrier', 'c'))
    .execute();
  if (rows.length !== ids.length) throw notFound();
  const sensors = await valueSensors(q, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id)!;
    return { ...r, mode: r.mode as SampleMode, sensors: sensors.get(id) ?? [] };
  });
}

/** The caller's sensors by number, in the order asked, with the zone of the carrier each serves. */
export async function sensorSubjects(q: Queryable, scope: Scope, devNos: readonly string[]): Promise<SensorSubject[]> {
  const rows = await scoped(q, scope)
    .selectFrom('sensor as x')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.id', 'x.dev_no as devNo', 'x.customer_id as customerId', 'x.carrier_id as carrierId', 'c.name as carrierName', 'c.temp_min as tempMin', 'c.temp_max as tempMax', 'c.hum_min as humMin', 'c.hum_max as humMax'])
    .where('x.dev_no', 'in', [...devNos])
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .execute();
  if (rows.length !== devNos.length) throw notFound();
  const byNo = new Map(rows.map((r) => [r.devNo, r]));
  return devNos.map((d) => byNo.get(d)!);
}
