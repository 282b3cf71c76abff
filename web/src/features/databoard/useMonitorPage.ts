/**
 * One page of the device monitor, filtered, searched and paged on the server
 * (GET /service/dm/monitorPage) with the counts over every carrier of the filters
 * (GET /service/dm/monitorCounts): the browser holds the cards it shows, never the whole list
 * (62 MB at 100,000 sensors). The live stream is opened for the page's sensors only and merged
 * into the page as the whole list's was (monitorState.ts); an exception reads the page and the
 * counts again (its carrier's state may change page), and both are read again periodically.
 */
import { useRef } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { dmRefs, type MonitorFilter } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveRows, useRefreshEvery } from './useLiveRows';

/**
 * While the stream is up: the page rarely (the stream keeps it), the counts once a minute (the
 * stream does not carry them; each is a scan of every carrier, ~320 ms of the console's CPU and
 * ~50 MB of short-lived objects at 100,000 sensors, docs/performance.md "Device monitor").
 */
const PAGE_UP_S = 300;
const COUNTS_UP_S = 60;

export interface BoardQuery {
  sceneId?: number;
  customerId?: number;
  type?: number;
  search?: string;
  state: MonitorFilter;
  iDisplayStart: number;
  iDisplayLength: number;
}

export function useMonitorPage(q: BoardQuery) {
  const { streamRef, downS, every } = useRefreshEvery();
  // 'all' and an empty search are left out: the query is then exactly the boot's preload (app/pages.tsx).
  const filters = { sceneId: q.sceneId, customerId: q.customerId, type: q.type, search: q.search || undefined, state: q.state === 'all' ? undefined : q.state };
  const page = useCall(
    dmRefs.monitorPage,
    { query: { ...filters, iDisplayStart: q.iDisplayStart, iDisplayLength: q.iDisplayLength } },
    { staleTime: 5_000, placeholderData: keepPreviousData, refetchInterval: every(PAGE_UP_S), refetchIntervalInBackground: false },
  );
  // Asked for once the first page is in: the scan behind the counts (~1 s at 100,000 sensors) must not hold up the first cards.
  const counts = useCall(
    dmRefs.monitorCounts,
    { query: filters },
    { enabled: page.data !== undefined, staleTime: 5_000, placeholderData: keepPreviousData, refetchInterval: every(COUNTS_UP_S), refetchIntervalInBackground: false },
  );

  const refetch = useRef(() => {});
  refetch.current = () => {
    void page.refetch();
    void counts.refetch();
  };
  const { carriers, streamState } = useLiveRows(page.data?.rows, { exception: () => refetch.current(), open: () => void page.refetch() });
  streamRef.current = streamState;

  return { carriers, page, counts, total: page.data?.total, streamState, refreshS: downS, refetch: () => refetch.current() };
}
