import { sql, type Kysely } from 'kysely';
import type { AppDeps } from '../../deps.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { ingestOf, type DownKind } from '../../ingest/index.js';

/**
 * Publishes committed device commands (configuration, output switching) to their gateways and
 * marks each published one issuing through `k` (the caller's scoped builder, or a job's).
 * Without an MQTT transport, or with the gateway away, a command stays `prepare` for the
 * gateway's next poll (GET /ingest/v1/{sn}/commands) or session. Answers how many went out.
 */
export async function publishCommands(deps: AppDeps, k: Kysely<DB>, kind: DownKind, cmds: { id: number; sn: string; payload: object }[]): Promise<number> {
  let published = 0;
  for (const c of cmds) {
    const sent = await ingestOf(deps)
      .publishDown(c.sn, kind, c.payload)
      .catch(() => false);
    if (!sent) continue;
    await k.updateTable('device_command').set({ status: 'issuing', issued_at: sql`coalesce(issued_at, now())` }).where('id', '=', c.id).where('status', '=', 'prepare').execute();
    published++;
  }
  return published;
}
