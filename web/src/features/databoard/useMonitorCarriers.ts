/**
 * The carriers of the caller's scope as the monitoring views show them: the monitor list
 * (GET /service/dm/monitorList) kept current by the shared live stream, with a periodic
 * refresh as the fallback. The board, the table, the map, the overview and home all read it,
 * so they agree on every value and state.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { dmRefs, paramRefs, type LiveEvent } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveStream, type StreamState } from './useLiveStream';
import { applyEvents, mergeFresh, type MonitorCarrier } from './monitorState';
import { FIRST_SCREEN } from './firstScreen';

/**
 * Fallback refresh: often while the stream is down, rarely while it is up. The often is the
 * "monitoring auto-refresh (seconds)" parameter of /sys/paramsetup (spec §3); this is its default.
 */
export const REFRESH_DOWN_S = 30;

/** The seconds between refreshes while the stream is down: the parameter's value, or the default when it is missing or not a number. */
export const refreshDownS = (stored: string | undefined) => (Number(stored) >= 1 ? Number(stored) : REFRESH_DOWN_S);
const REFRESH_UP_S = 300;

export interface MonitorQuery {
  sceneId?: number;
  customerId?: number;
  type?: number;
}

/**
 * `firstScreen`: also ask for the first carriers alone, which answer in a fraction of the whole
 * list's time (10,000 carriers are 7 MB of JSON): the board paints them while the rest comes.
 * `complete` says when the whole list is in (counts over all carriers wait for it).
 */
export function useMonitorCarriers(query: MonitorQuery = {}, opts: { enabled?: boolean; firstScreen?: boolean } = {}) {
  const [carriers, setCarriers] = useState<MonitorCarrier[]>([]);
  const streamRef = useRef<StreamState>('connecting');
  const refetchRef = useRef<() => void>(() => {});
  const params = useCall(paramRefs.list, undefined, { staleTime: 300_000 });
  const downS = refreshDownS(params.data?.monitor_refresh_seconds);
  const onEvents = useCallback((events: LiveEvent[]) => {
    setCarriers((cur) => applyEvents(cur, events));
    // An exception changes the carrier's open-exception count the list carries: read it again.
    if (events.some((e) => e.type === 'exception')) refetchRef.current();
  }, []);
  const list = useCall(
    dmRefs.monitorList,
    { query: { sceneId: query.sceneId, customerId: query.customerId, type: query.type } },
    {
      enabled: opts.enabled ?? true,
      // Kept current by the stream: an answer a few seconds old (fetched ahead by preload.ts) is not read again on mount.
      staleTime: 5_000,
      refetchInterval: () => (streamRef.current === 'connected' ? REFRESH_UP_S : downS) * 1000,
      refetchIntervalInBackground: false,
    },
  );
  // The same filters as the whole list (the board's preload asks for exactly this at boot, app/pages.tsx).
  const first = useCall(
    dmRefs.monitorList,
    { query: { sceneId: query.sceneId, customerId: query.customerId, type: query.type, first: FIRST_SCREEN } },
    { enabled: (opts.enabled ?? true) && !!opts.firstScreen && list.data === undefined, staleTime: 5_000 },
  );
  refetchRef.current = () => void list.refetch();
  const streamState = useLiveStream(onEvents, { onOpen: () => void list.refetch() });
  streamRef.current = streamState;

  useEffect(() => {
    if (list.data === undefined) return;
    const fresh = list.data;
    setCarriers((cur) => mergeFresh(fresh, cur));
  }, [list.data]);
  // The first screen only while the whole list has not come.
  useEffect(() => {
    const part = first.data;
    if (part === undefined || list.data !== undefined) return;
    setCarriers((cur) => (cur.length ? cur : mergeFresh(part, cur)));
  }, [first.data, list.data]);

  return { carriers, list, streamState, complete: list.data !== undefined, refreshS: downS };
}
