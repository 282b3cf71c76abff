import type { TFunction } from 'i18next';
import { MAX_INTERVAL_S, MONITOR_TASK_DEFAULTS, UNIT_SECONDS, type IntervalUnit, type MonitorFamily } from '@coldwatch/contract';

/** "10 minutes", "2 hours": an interval as the page shows it. */
export const intervalText = (t: TFunction, value: number, unit: IntervalUnit) => t(`unitCount.${unit}`, { count: value });

/** A family's platform default, as the dialog's hint says it. */
export const defaultText = (t: TFunction, family: MonitorFamily) => intervalText(t, MONITOR_TASK_DEFAULTS[family].intervalValue, MONITOR_TASK_DEFAULTS[family].intervalUnit);

/** The contract's §5 rule of an interval (a whole number, at least 1, at most 30 days in all), for the form's hint before the server says it. */
export const intervalValid = (value: unknown, unit: IntervalUnit | undefined) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && (!unit || value * UNIT_SECONDS[unit] <= MAX_INTERVAL_S);
