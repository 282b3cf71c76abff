/** The caller's carriers (the first STATISTIC_MAX_CARRIERS) and their statistics over the last 7 days: the home widget's and the guidance analysis's. */
import { useMemo } from 'react';
import { carrierRefs, STATISTIC_MAX_CARRIERS, statisticRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

const WEEK = 7 * 86_400_000;
/** The span moves on by the minute, so that reopening the page within a minute asks nothing again. */
const minuteNow = () => Math.floor(Date.now() / 60_000) * 60_000;

export function useWeekStatistics(enabled = true) {
  const end = minuteNow();
  const carriers = useCall(carrierRefs.page, { query: { iDisplayLength: STATISTIC_MAX_CARRIERS } }, { enabled });
  const ids = useMemo(() => (carriers.data?.rows ?? []).map((c) => c.id), [carriers.data]);
  const stats = useCall(statisticRefs.list, { query: { carrierIds: ids.join(','), startTime: end - WEEK, endTime: end } }, { enabled: enabled && ids.length > 0 });
  return {
    carriers: carriers.data?.rows ?? [],
    rows: ids.length ? (stats.data ?? []) : [],
    loading: carriers.isLoading || (ids.length > 0 && stats.isLoading),
    error: carriers.error ?? stats.error,
    retry: () => void (carriers.error ? carriers.refetch() : stats.refetch()),
    span: [end - WEEK, end] as [number, number],
  };
}
