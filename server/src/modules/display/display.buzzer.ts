import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.gen.js';
import type { OutputCommand } from '../relay/relay.switch.js';

/*
 * A display sounds its buzzer for its monitoring point's alarms (docs/devices.md "Displays";
 * spec §3 Display: alarm on/off, alarm duration, alarm interval). The buzzer is an output on the
 * display's gateway, switched like a relay's (`down/output` with the display's number), written
 * as device_command rows and published after the commit by the relays' publisher.
 *
 * While the point has an ongoing temperature or humidity exception that nobody has handled yet
 * (status pending: handling it is the acknowledgement that silences the room), a display with
 * its alarm on sounds for alarm_duration_s, then is quiet until alarm_interval_s after it began,
 * then sounds again. It stops at once when the exception ends or is handled, or the display's
 * alarm is switched off or the display stopped. Connection, power and battery exceptions do not
 * sound it: they are not the point's climate (as for relays). The job runs every 5 s, so a
 * sounding lasts its duration to within that.
 */

/** One pass over every customer's displays (`k` unscoped, in a transaction): the commands to publish. */
export async function tickBuzzers(k: Kysely<DB>): Promise<{ on: number; off: number; commands: OutputCommand[] }> {
  const rows = await k
    .selectFrom('display as d')
    .innerJoin('gateway as g', 'g.id', 'd.gateway_id')
    .leftJoin('carrier as c', (j) => j.onRef('c.id', '=', 'd.carrier_id').onRef('c.customer_id', '=', 'd.customer_id'))
    .select(['d.id', 'd.customer_id', 'd.dev_no', 'd.gateway_id', 'g.sn', 'd.buzzer_sounding'])
    .select((eb) =>
      eb
        .and([
          eb('d.alarm_on', '=', true),
          eb('d.status', '<>', 2),
          eb('c.alarm_on', '=', true),
          eb.exists(
            eb
              .selectFrom('exception_record as e')
              .select('e.id')
              .whereRef('e.carrier_id', '=', 'd.carrier_id')
              .where('e.ongoing', '=', true)
              .where('e.type', '=', 'data')
              .where('e.status', '=', 0),
          ),
        ])
        .as('alarmed'),
    )
    .select(sql<boolean>`d.buzzer_on_at IS NOT NULL AND d.buzzer_on_at + make_interval(secs => d.alarm_duration_s) <= now()`.as('sounded'))
    .select(sql<boolean>`d.buzzer_on_at IS NULL OR d.buzzer_on_at + make_interval(secs => d.alarm_interval_s) <= now()`.as('rested'))
    .where((eb) => eb.or([eb('d.buzzer_sounding', '=', true), eb('d.carrier_id', 'is not', null)]))
    .forUpdate('d')
    .skipLocked()
    .execute();
  const commands: OutputCommand[] = [];
  let on = 0;
  let off = 0;
  for (const d of rows) {
    let turn: boolean | null = null;
    if (d.buzzer_sounding && (!d.alarmed || d.sounded)) turn = false;
    else if (!d.buzzer_sounding && d.alarmed && d.rested) turn = true;
    if (turn === null) continue;
    await k
      .updateTable('display')
      .set(turn ? { buzzer_sounding: true, buzzer_on_at: sql`now()` } : { buzzer_sounding: false })
      .where('id', '=', d.id)
      .execute();
    const cmdId = `c-${randomBytes(6).toString('hex')}`;
    const payload = { cmdId, dev: d.dev_no, on: turn };
    const row = await k
      .insertInto('device_command')
      .values({ customer_id: d.customer_id, gateway_id: d.gateway_id, display_id: d.id, cmd_id: cmdId, kind: 'output', order_type: 'buzzer', dev_no: d.dev_no, payload: JSON.stringify(payload), operator: 'system' })
      .returning('id')
      .executeTakeFirstOrThrow();
    commands.push({ id: row.id, sn: d.sn, payload });
    if (turn) on++;
    else off++;
  }
  return { on, off, commands };
}
