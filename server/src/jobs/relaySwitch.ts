import type { AppDeps } from '../deps.js';
import { crossTenant } from '../platform/db/kysely.js';
import { tickSwitches } from '../modules/relay/relay.switch.js';
import { publishCommands } from '../modules/config/publish.js';

/** The job `relay-switch`: every customer's running switches end at their cancel time; intelligent ones follow their condition. */
export async function runRelaySwitches(deps: AppDeps): Promise<{ ended: number; published: number }> {
  const why = "relays' running switches of every customer";
  const r = await deps.db.tx((q) => tickSwitches(crossTenant(q, why)));
  return { ended: r.ended, published: await publishCommands(deps, crossTenant(deps.db, why), 'output', r.commands) };
}
