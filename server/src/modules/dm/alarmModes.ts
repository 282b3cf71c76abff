import { sql, type Kysely } from 'kysely';
import type { MonitorSummary } from '@coldwatch/contract';
import type { DB } from '../../platform/db/schema.gen.js';
import type { Scope } from '../../platform/auth/scope.js';
import { carrierSelect, hasTrigger } from '../carrier/carrier.repository.js';
import { boardWhere, type BoardFilters } from './board.js';

/**
 * Home's alarm mode widget, counted in SQL (a few integers, not the monitor list): the carriers by
 * their alarm switch as the board draws it (no trigger set is grey whatever the switch; a paused
 * alarm apart from the ones on) and, of those whose alarm is on, how many use each channel (a
 * carrier without a trigger bound sends e-mail, as carrierSelect's `channels` says).
 */
export async function alarmModes(k: Kysely<DB>, scope: Scope, f: Pick<BoardFilters, 'customerId' | 'sceneId' | 'type'>): Promise<MonitorSummary['alarms']> {
  const live = sql`(c.alarm_on AND ${hasTrigger})`;
  const paused = sql`coalesce(c.paused_until > now(), false)`;
  const uses = (channel: string) => sql<number>`count(*) FILTER (WHERE c.alarm_on AND ${channel} = any(coalesce(t.channels, ARRAY['email'])))::int`;
  const r = await carrierSelect(k)
    .clearSelect()
    .select([
      sql<number>`count(*) FILTER (WHERE NOT ${hasTrigger})::int`.as('noTrigger'),
      sql<number>`count(*) FILTER (WHERE ${hasTrigger} AND NOT c.alarm_on)::int`.as('off'),
      sql<number>`count(*) FILTER (WHERE ${live} AND ${paused})::int`.as('paused'),
      sql<number>`count(*) FILTER (WHERE ${live} AND NOT ${paused})::int`.as('on'),
      uses('email').as('email'),
      uses('sms').as('sms'),
      uses('voice').as('voice'),
    ])
    .where(await boardWhere(k, scope, f))
    .executeTakeFirstOrThrow();
  return { on: r.on, off: r.off, noTrigger: r.noTrigger, paused: r.paused, byChannel: { email: r.email, sms: r.sms, voice: r.voice } };
}
