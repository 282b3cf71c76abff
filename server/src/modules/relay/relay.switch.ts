import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { SwitchBody, SwitchMode } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { paramError } from '../../platform/http/errors.js';
import { relaysInScope } from './relay.repository.js';
import { busLimit } from '../dm/busDevice.js';

/*
 * Switching relays (spec §4 Device switch; docs/devices.md "Relays"). A switch is a row of
 * relay_switch; each change of output it asks for is an `output` command to the relay's gateway
 * (device_command, published after the commit, ended by the gateway's ack, which sets the relay's
 * confirmed output). Modes: manual (a user's switching), direct (switching that ignores the
 * condition), intelligent (the output follows the condition: on while the relay's carrier has
 * an ongoing exception; the job `relay-switch` keeps it so). A switch ends when another starts,
 * when a user cancels it (terminate: user termination), or at its cancel time: manual and direct
 * revert to the output before them, intelligent control completes (and reverts the same way).
 */

export interface OutputCommand {
  id: number;
  sn: string;
  payload: { cmdId: string; dev: string; on: boolean };
}

interface RelayRef {
  id: number;
  customer_id: number;
  dev_no: string;
  gateway_id: number;
  sn: string;
}

/** Writes one output command (prepare); the caller publishes it after the commit. */
async function command(k: Kysely<DB>, r: RelayRef, on: boolean, orderType: string, operator: string): Promise<OutputCommand> {
  const cmdId = `c-${randomBytes(6).toString('hex')}`;
  const payload = { cmdId, dev: r.dev_no, on };
  const row = await k
    .insertInto('device_command')
    .values({ customer_id: r.customer_id, gateway_id: r.gateway_id, relay_id: r.id, cmd_id: cmdId, kind: 'output', order_type: orderType, dev_no: r.dev_no, payload: JSON.stringify(payload), operator })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, sn: r.sn, payload };
}

/**
 * Whether the relay's condition holds: its carrier has an ongoing temperature or humidity
 * exception. A sensor offline, a power failure or a low battery switch no fan or heater
 * (docs/alarms.md "Connection, power and battery"): they are not the point's climate.
 */
async function conditionOf(k: Kysely<DB>, carrierId: number | null): Promise<boolean> {
  if (!carrierId) return false;
  const hit = await k.selectFrom('exception_record').select('id').where('carrier_id', '=', carrierId).where('ongoing', '=', true).where('type', '=', 'data').limit(1).executeTakeFirst();
  return !!hit;
}

/** Ends a running switch; answers the output it restores (the one before it, off when there was none). */
async function endSwitch(k: Kysely<DB>, s: { id: number; before_output: boolean | null }, endKind: 'start' | 'terminate' | 'complete' | 'revert', by: string | null) {
  await k
    .updateTable('relay_switch')
    .set({ ended_at: sql`now()`, end_kind: endKind, ended_by: by, ...(endKind === 'terminate' ? { result: 'userTermination' } : {}) })
    .where('id', '=', s.id)
    .execute();
  return s.before_output ?? false;
}

export async function switchRelays(q: Queryable, scope: Scope, b: SwitchBody): Promise<{ switched: number; commands: OutputCommand[] }> {
  const k = scoped(q, scope);
  const relays = await relaysInScope(k, scope, b.ids);
  const operator = scope.name || scope.account;
  if (relays.some((r) => r.status === 2)) throw paramError('errors.relay.stopped', { ids: 'errors.relay.stopped' });
  if (b.mode === 'intelligent' && relays.some((r) => r.carrier_id === null)) throw paramError('errors.relay.noCarrier', { ids: 'errors.relay.noCarrier' });
  const running = await k.selectFrom('relay_switch').select(['id', 'relay_id', 'before_output']).where('relay_id', 'in', b.ids).where('ended_at', 'is', null).execute();
  const commands: OutputCommand[] = [];
  let switched = 0;
  for (const r of relays) {
    const cur = running.find((s) => s.relay_id === r.id);
    if (b.mode === 'cancel') {
      if (!cur) continue;
      const restore = await endSwitch(k, cur, 'terminate', operator);
      if ((r.output ?? false) !== restore) commands.push(await command(k, r, restore, 'cancel', operator));
      switched++;
      continue;
    }
    if (cur) await endSwitch(k, cur, 'start', operator);
    const cond = b.mode === 'intelligent' ? await conditionOf(k, r.carrier_id) : null;
    const target = b.mode === 'intelligent' ? cond! : b.on!;
    await k
      .insertInto('relay_switch')
      .values({
        customer_id: r.customer_id,
        relay_id: r.id,
        mode: b.mode,
        turn_on: target,
        // A switch that follows another reverts to what was there before the first.
        before_output: cur ? cur.before_output : r.output,
        cancel_after_s: b.cancelTime || null,
        result: b.mode === 'direct' ? 'ignoreCondition' : 'user',
        condition_reached: cond,
        operator,
      })
      .execute();
    commands.push(await command(k, r, target, b.mode, operator));
    switched++;
  }
  return { switched, commands };
}

/**
 * The job's pass over every customer's running switches (`k` unscoped): those whose cancel time
 * has come end (revert or complete) and restore the output before them; intelligent ones follow
 * their condition. Answers the commands to publish.
 */
export async function tickSwitches(k: Kysely<DB>): Promise<{ ended: number; commands: OutputCommand[] }> {
  const rows = await k
    .selectFrom('relay_switch as s')
    .innerJoin('relay as t', 't.id', 's.relay_id')
    .innerJoin('gateway as g', 'g.id', 't.gateway_id')
    .select(['s.id', 's.mode', 's.before_output', 's.condition_reached', 't.id as relay_id', 't.customer_id', 't.dev_no', 't.gateway_id', 't.carrier_id', 't.output', 'g.sn'])
    .select(sql<boolean>`s.cancel_after_s IS NOT NULL AND s.started_at + make_interval(secs => s.cancel_after_s) <= now()`.as('due'))
    .select((eb) => eb.exists(eb.selectFrom('device_command as d').select('d.id').whereRef('d.relay_id', '=', 't.id').where('d.status', 'in', ['prepare', 'issuing'])).as('pending'))
    .where('s.ended_at', 'is', null)
    .forUpdate('s')
    .skipLocked()
    .execute();
  const commands: OutputCommand[] = [];
  let ended = 0;
  for (const s of rows) {
    const r = { id: s.relay_id, customer_id: s.customer_id, dev_no: s.dev_no, gateway_id: s.gateway_id, sn: s.sn };
    if (s.due) {
      const restore = await endSwitch(k, s, s.mode === 'intelligent' ? 'complete' : 'revert', null);
      if ((s.output ?? false) !== restore) commands.push(await command(k, r, restore, 'revert', 'system'));
      ended++;
      continue;
    }
    if (s.mode !== 'intelligent') continue;
    const cond = await conditionOf(k, s.carrier_id);
    if (cond && !s.condition_reached) await k.updateTable('relay_switch').set({ condition_reached: true }).where('id', '=', s.id).execute();
    if (!s.pending && (s.output ?? false) !== cond) commands.push(await command(k, r, cond, 'intelligent', 'system'));
  }
  return { ended, commands };
}

/** Stopping a relay ends its running switch (terminated by the user who stopped it); nothing is published to a stopped relay. */
export async function endForStop(k: Kysely<DB>, ids: number[], by: string) {
  await k.updateTable('relay_switch').set({ ended_at: sql`now()`, end_kind: 'terminate', result: 'userTermination', ended_by: by }).where('relay_id', 'in', ids).where('ended_at', 'is', null).execute();
}

export function switchLog(q: Queryable, scope: Scope, f: PageInput & { relayId?: number; devNo?: string }) {
  const query = scoped(q, scope)
    .selectFrom('relay_switch as s')
    .innerJoin('relay as t', 't.id', 's.relay_id')
    .select([
      's.id',
      's.relay_id as relayId',
      't.dev_no as devNo',
      sql<SwitchMode>`s.mode`.as('mode'),
      's.turn_on as turnOn',
      's.cancel_after_s as cancelAfterS',
      msOf('s.started_at').as('startedAt'),
      msOrNull('s.ended_at').as('endedAt'),
      sql<'start' | 'terminate' | 'complete' | 'revert' | null>`s.end_kind`.as('endKind'),
      sql<'user' | 'ignoreCondition' | 'userTermination'>`s.result`.as('result'),
      's.condition_reached as conditionReached',
      's.operator',
      's.ended_by as endedBy',
    ])
    .where((eb) => {
      const and = [busLimit(eb, scope)];
      if (f.relayId) and.push(eb('s.relay_id', '=', f.relayId));
      if (f.devNo) and.push(eb('t.dev_no', 'ilike', contains(f.devNo)));
      return eb.and(and);
    });
  return paged(query, f, { sortable: { startedAt: 's.started_at' }, by: 's.id desc', windowedCountOn: scoped(q, scope) });
}
