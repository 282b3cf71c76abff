import type { ExcludedPeriod } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { excludedSpans } from '../../alarm/excluded.js';

/**
 * The periods a carrier's readings were invalid within [start, end] (both included, as the
 * history span is), with the name of the rule of each: what the history chart shades. The rule
 * is named even once deleted, since what it excluded stays excluded. A sensor without a carrier
 * has none; a carrier without rules costs one index probe. The carrier is the caller's already
 * (found through its scope); the rules' names are read through it too.
 */
export async function excludedPeriods(q: Queryable, scope: Scope, carrierId: number | null, start: number, end: number): Promise<ExcludedPeriod[]> {
  if (carrierId === null) return [];
  const spans = (await excludedSpans(q, [carrierId], start, end + 1)).get(carrierId) ?? [];
  if (!spans.length) return [];
  const rules = await scoped(q, scope).selectFrom('invalid_rule').select(['id', 'name']).where('id', 'in', [...new Set(spans.map((s) => s.ruleId))]).execute();
  const names = new Map(rules.map((r) => [r.id, r.name]));
  return spans.map((s) => ({ ...s, name: names.get(s.ruleId) ?? '' }));
}
