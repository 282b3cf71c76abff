/**
 * The carriers of the caller's scope as the monitoring views show them: the monitor list
 * (GET /service/dm/monitorList) kept current by the shared live stream, with a periodic
 * refresh as the fallback. The board, the table, the map, the overview and home all read it,
 * so they agree on every value and state.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { dmApi, type LiveEvent } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveStream, type StreamState } from './useLiveStream';
import { applyEvents, mergeFresh, type MonitorCarrier } from './monitorState';

/** Fallback refresh: often while the stream is down, rarely while it is up (spec §3 "monitoring auto-refresh"). */
export const REFRESH_DOWN_S = 30;
const REFRESH_UP_S = 300;

export interface MonitorQuery {
  sceneId?: number;
  customerId?: number;
  type?: number;
}

export function useMonitorCarriers(query: MonitorQuery = {}, opts: { enabled?: boolean } = {}) {
  const [carriers, setCarriers] = useState<MonitorCarrier[]>([]);
  const streamRef = useRef<StreamState>('connecting');
  const refetchRef = useRef<() => void>(() => {});
  const onEvents = useCallback((events: LiveEvent[]) => {
    setCarriers((cur) => applyEvents(cur, events));
    // An exception changes the carrier's open-exception count the list carries: read it again.
    if (events.some((e) => e.type === 'exception')) refetchRef.current();
  }, []);
  const list = useCall(
    dmApi.monitorList,
    { query: { sceneId: query.sceneId, customerId: query.customerId, type: query.type } },
    {
      enabled: opts.enabled ?? true,
      refetchInterval: () => (streamRef.current === 'connected' ? REFRESH_UP_S : REFRESH_DOWN_S) * 1000,
      refetchIntervalInBackground: false,
    },
  );
  refetchRef.current = () => void list.refetch();
  const streamState = useLiveStream(onEvents, { onOpen: () => void list.refetch() });
  streamRef.current = streamState;

  useEffect(() => {
    if (list.data === undefined) return;
    const fresh = list.data;
    setCarriers((cur) => mergeFresh(fresh, cur));
  }, [list.data]);

  return { carriers, list, streamState };
}
