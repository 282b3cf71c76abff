/** How a rule's "when" reads in the list: its days and windows, its period, or "while in defrost". */
import type { TFunction } from 'i18next';
import type { InvalidRuleRow } from '@coldwatch/contract';
import { formatInZone } from '../../lib/format';

/** Minutes of the day as HH:mm. */
export const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The weekdays as a short list, with the two usual sets named. */
export function daysText(t: TFunction, days: number[]): string {
  const d = [...days].sort((a, b) => a - b).join(',');
  if (d === '1,2,3,4,5,6,7') return t('everyDay');
  if (d === '1,2,3,4,5') return t('workdays');
  return days.map((x) => t(`weekday.${x}`)).join(' ');
}

export function whenText(t: TFunction, r: Pick<InvalidRuleRow, 'kind' | 'weekdays' | 'windows' | 'start' | 'end' | 'timeZone'>): string {
  if (r.kind === 'defrost') return t('defrostText');
  if (r.kind === 'period') return `${formatInZone(r.start, r.timeZone, 'YYYY-MM-DD HH:mm')} – ${formatInZone(r.end, r.timeZone, 'YYYY-MM-DD HH:mm')}`;
  return `${daysText(t, r.weekdays)} ${r.windows.map((w) => `${hhmm(w.from)}–${hhmm(w.to)}`).join(', ')}`;
}
