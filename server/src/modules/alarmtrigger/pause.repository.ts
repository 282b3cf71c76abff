import { sql } from 'kysely';
import type { AlarmPauseBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { paramError } from '../../platform/http/errors.js';
import { idsInScope } from '../shared/records.js';
import { logSwitch } from '../carrier/carrier.repository.js';

/** The longest pause: a fridge under maintenance must not stay silent for ever (docs/alarms.md "Pause"). */
export const PAUSE_MAX_MS = 30 * 86_400_000;

/**
 * Spec §4 "alarm can be paused and restarted": pauses the alarm of carriers until a time, for a
 * reason, or (until null) resumes it now. The switch stays as it is; excursions during the pause
 * are recorded and marked, and nobody is told (alarm/recipients.ts). Each carrier's change is a
 * row of the alarm-switch log; the alarm-resume job ends a pause at its time and logs that too.
 */
export async function pause(q: Queryable, scope: Scope, b: Required<AlarmPauseBody>, now = Date.now()) {
  if (b.until !== null && (b.until <= now || b.until > now + PAUSE_MAX_MS)) throw paramError('errors.alarmTrigger.pauseUntil', { until: 'errors.alarmTrigger.pauseUntil' });
  const k = scoped(q, scope);
  await idsInScope(k, scope, 'carrier', b.ids);
  const until = b.until === null ? null : new Date(b.until);
  const changed = await k
    .updateTable('carrier')
    .set({ paused_until: until, pause_reason: until ? b.reason : '' })
    .where('id', 'in', b.ids)
    // A resume changes only paused carriers.
    .where(until ? sql<boolean>`true` : sql<boolean>`paused_until IS NOT NULL`)
    .returning(['id', 'customer_id', 'name', 'alarm_on'])
    .execute();
  for (const on of [true, false]) await logSwitch(k, scope, changed.filter((c) => c.alarm_on === on), on, b.reason, until);
  return { changed: changed.length };
}
