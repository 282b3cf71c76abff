import type { AppDeps } from '../deps.js';
import { crossTenant } from '../platform/db/kysely.js';
import { tickBuzzers } from '../modules/display/display.buzzer.js';
import { publishCommands } from '../modules/config/publish.js';

/** The job `display-buzzer`: every customer's displays sound for their point's unhandled alarms, for their duration, every interval. */
export async function runDisplayBuzzers(deps: AppDeps): Promise<{ on: number; off: number; published: number }> {
  const why = "displays' buzzers of every customer";
  const r = await deps.db.tx((q) => tickBuzzers(crossTenant(q, why)));
  return { on: r.on, off: r.off, published: await publishCommands(deps, crossTenant(deps.db, why), 'output', r.commands) };
}
