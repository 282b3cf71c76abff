/**
 * One page of the device monitor, filtered, searched and paged on the server
 * (GET /service/dm/monitorPage) with the counts over every carrier of the filters
 * (GET /service/dm/monitorCounts): the browser holds the cards it shows, never the whole list
 * (62 MB at 100,000 sensors). The live stream is opened for the page's sensors only and merged
 * into the page as the whole list's was (monitorState.ts); an exception reads the page and the
 * counts again (its carrier's state may change page), and both are read again periodically.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { dmRefs, paramRefs, type LiveEvent, type MonitorFilter } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveStream, type StreamState } from './useLiveStream';
import { applyEvents, mergeFresh, type MonitorCarrier } from './monitorState';
import { refreshDownS } from './useMonitorCarriers';

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
  const [carriers, setCarriers] = useState<MonitorCarrier[]>([]);
  const streamRef = useRef<StreamState>('connecting');
  const params = useCall(paramRefs.list, undefined, { staleTime: 300_000 });
  const downS = refreshDownS(params.data?.monitor_refresh_seconds);
  const every = (upS: number) => () => (streamRef.current === 'connected' ? upS : downS) * 1000;
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
  const onEvents = useCallback((events: LiveEvent[]) => {
    setCarriers((cur) => applyEvents(cur, events));
    if (events.some((e) => e.type === 'exception')) refetch.current();
  }, []);
  const watch = useMemo(() => carriers.flatMap((c) => c.sensors.map((s) => s.id)), [carriers]);
  // The ids only, by content: a new value on a card does not open the stream again.
  const watchKey = watch.join(',');
  const watched = useMemo(() => (watchKey ? watchKey.split(',').map(Number) : []), [watchKey]);
  const streamState = useLiveStream(onEvents, { onOpen: () => void page.refetch(), watch: watched });
  streamRef.current = streamState;

  useEffect(() => {
    const rows = page.data?.rows;
    if (rows === undefined) return;
    setCarriers((cur) => mergeFresh(rows, cur));
  }, [page.data]);

  return { carriers, page, counts, total: page.data?.total, streamState, refreshS: downS, refetch: () => refetch.current() };
}
