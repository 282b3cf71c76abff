/**
 * One page of the monitoring-point table (GET /service/dm/monitorTable): filtered by the exact
 * state, searched, sorted (live values too) and paged on the server, so the browser holds the rows
 * it shows, never the whole list (62 MB at 100,000 sensors). Home's list and dashboard widgets
 * read their top rows through it too (sorted by state: who needs a look first). The rows are live
 * for their own sensors (useLiveRows); an exception reads the page again (a state may change its
 * place), and so does the periodic refresh (readings move rows of a sorted view).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { dmRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveRows, useRefreshEvery } from './useLiveRows';
import { rereadOnOpen, tableInput, type TableQuery } from './tableQuery';

/** While the stream is up: a minute (the stream keeps the values, not the order of a sorted view). */
const UP_S = 60;

export function useMonitorTable(q: TableQuery) {
  const { streamRef, every } = useRefreshEvery();
  const page = useCall(dmRefs.monitorTable, tableInput(q), { staleTime: 5_000, placeholderData: keepPreviousData, refetchInterval: every(UP_S), refetchIntervalInBackground: false });
  const open = () => page.data !== undefined && rereadOnOpen(page.dataUpdatedAt, Date.now()) && void page.refetch();
  const { carriers, streamState } = useLiveRows(page.data?.rows, { exception: () => void page.refetch(), open });
  streamRef.current = streamState;
  return { carriers, page, total: page.data?.total ?? 0, streamState };
}
