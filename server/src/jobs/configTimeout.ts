import { sql } from 'kysely';
import type { Queryable } from '../platform/db/client.js';
import { crossTenant } from '../platform/db/kysely.js';

/**
 * Configuration commands their gateway has not answered within the sensor configuration timeout
 * (parameter `sensor_config_timeout_minutes`) fail, every customer's (the job `config-timeout`).
 */
export async function failOverdue(q: Queryable, minutes: number): Promise<number> {
  const rows = await crossTenant(q, 'configuration commands of every customer time out')
    .updateTable('device_command')
    .set({ status: 'fail', detail: `no answer from the gateway within ${minutes} min`, finished_at: sql`now()` })
    .where('kind', '=', 'config')
    .where('status', 'in', ['prepare', 'issuing'])
    .where('created_at', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)
    .returning('id')
    .execute();
  return rows.length;
}
