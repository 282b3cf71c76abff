import { allowedWidgets, DEFAULT_WIDGETS, HOME_STYLES, HOME_WIDGETS, type HomeSetting, type HomeSettingBody, type HomeStyle, type HomeWidget } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import { sceneLimit } from '../../platform/db/sceneLimit.js';
import { noPermission, paramError } from '../../platform/http/errors.js';
import type { Scope } from '../../platform/auth/scope.js';

/** A user's home settings are a row of its own customer (as its shortcuts), whatever customers it governs. */
const own = (q: Queryable, scope: Scope) => scoped(q, { customerIds: [scope.homeCustomerId] });

const offeredTo = (scope: Scope) => allowedWidgets((f) => scope.funcs.has(f));

/** The sensors of `devNos` the caller may see (its customers and scene limit), in the order asked. */
async function visibleSensors(q: Queryable, scope: Scope, devNos: readonly string[]) {
  if (!devNos.length) return [];
  const rows = await scoped(q, scope)
    .selectFrom('sensor as x')
    .leftJoin('carrier as c', 'c.id', 'x.carrier_id')
    .select(['x.dev_no as devNo', 'c.name as carrierName'])
    .where('x.dev_no', 'in', devNos)
    .where((eb) => sceneLimit(eb, scope, 'sensor', 'x'))
    .execute();
  const byNo = new Map(rows.map((r) => [r.devNo, r]));
  return devNos.flatMap((n) => (byNo.has(n) ? [byNo.get(n)!] : []));
}

/**
 * The caller's settings: its saved ones, or the default (style classic, DEFAULT_WIDGETS). A widget
 * the caller may no longer see (a role lost its function) and a sensor that left its scope are
 * left out, never shown; the row keeps them in case the function comes back.
 */
export async function get(q: Queryable, scope: Scope): Promise<HomeSetting> {
  const row = await own(q, scope).selectFrom('home_setting').select(['style', 'widgets', 'sensors']).where('user_id', '=', scope.userId).executeTakeFirst();
  const offered = offeredTo(scope);
  const style = row && (HOME_STYLES as readonly string[]).includes(row.style) ? (row.style as HomeStyle) : 'classic';
  const widgets = ((row?.widgets ?? DEFAULT_WIDGETS) as HomeWidget[]).filter((w) => offered.includes(w));
  return { style, widgets, sensors: await visibleSensors(q, scope, row?.sensors ?? []), offered, saved: !!row };
}

/**
 * Saves the caller's settings. Refused: a widget whose functions the caller lacks (spec §8
 * 500102, no permission), a sensor it cannot see (400, the sensor named), sensors chosen without
 * the widget that shows them.
 */
export async function set(q: Queryable, scope: Scope, b: HomeSettingBody): Promise<HomeSetting> {
  const forbidden = b.widgets.filter((w) => !HOME_WIDGETS[w].some((f) => scope.funcs.has(f)));
  if (forbidden.length) throw noPermission();
  if (b.sensors.length && !b.widgets.includes('sensorRecords')) throw paramError('errors.home.sensorsWithoutWidget', { sensors: 'errors.home.sensorsWithoutWidget' });
  const found = new Set((await visibleSensors(q, scope, b.sensors)).map((s) => s.devNo));
  const missing = b.sensors.find((n) => !found.has(n));
  if (missing) throw paramError('errors.home.sensorNotFound', { sensors: 'errors.home.sensorNotFound' });
  const values = { user_id: scope.userId, customer_id: scope.homeCustomerId, style: b.style, widgets: b.widgets, sensors: b.sensors, updated_at: new Date() };
  await own(q, scope)
    .insertInto('home_setting')
    .values(values)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ style: b.style, widgets: b.widgets, sensors: b.sensors, updated_at: values.updated_at }))
    .execute();
  return get(q, scope);
}
