import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import type { Scope } from '../../platform/auth/scope.js';
import { notFound } from '../../platform/http/errors.js';
import { get } from '../param/param.repository.js';
import { paramNumber } from '@coldwatch/contract';

export interface SensorLabel {
  devNo: string;
  type: string;
  carrierName: string | null;
  customerName: string;
}

/** The sensors of the ids, in the order asked, each within the caller's scope and scene limit; one that is not: 404 for all. */
export async function sensorLabels(q: Queryable, scope: Scope, ids: number[]): Promise<SensorLabel[]> {
  const unique = [...new Set(ids)];
  const rows = await scoped(q, scope)
    .selectFrom('sensor as x')
    .innerJoin('customer as cu', 'cu.id', 'x.customer_id')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.id', 'x.dev_no as devNo', 'x.type', 'c.name as carrierName', 'cu.name as customerName'])
    .where('x.id', 'in', unique)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .execute();
  if (rows.length !== unique.length) throw notFound();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const { devNo, type, carrierName, customerName } = byId.get(id)!;
    return { devNo, type, carrierName, customerName };
  });
}

/** The "labels per page" parameter (spec §3): how many labels one A4 sheet holds. */
export async function labelsPerPage(q: Queryable): Promise<number> {
  return paramNumber('labels_per_page', await get(q, 'labels_per_page'));
}
