/**
 * The monitor map's data, clustered on the server (GET /service/dm/mapClusters): the browser
 * sends the board's filters and its viewport, and gets the viewport's cells and single carriers,
 * never the whole monitor list (62 MB at 100,000 sensors). Without a viewport yet, the answer's
 * extent says where the map opens. Read again on pan and zoom (the map debounces them), when an
 * exception opens or ends (at most every ten seconds), and every half minute as home's sums are
 * (readings move carriers between states; the live stream does not carry a cell's counts).
 */
import { useCallback, useRef } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { dmMapRefs, type MapBox, type MapPoint, type MonitorFilter } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { call } from '../../api/call';
import { useExceptionRefresh } from './useLiveStream';
import { dueAgain, type MapView } from './mapLogic';

const REFRESH_S = 30;
const EXCEPTION_GAP_S = 10;

export interface MapFilters {
  sceneId?: number;
  customerId?: number;
  state?: MonitorFilter;
}

export function useMapClusters(filters: MapFilters, view: MapView | undefined) {
  // 'all' is left out: the same query as the map's first one whichever way it was reached.
  const f = { sceneId: filters.sceneId, customerId: filters.customerId, state: filters.state === 'all' ? undefined : filters.state };
  const q = useCall(dmMapRefs.mapClusters, { query: { ...f, ...view } }, { staleTime: 5_000, placeholderData: keepPreviousData, refetchInterval: REFRESH_S * 1000, refetchIntervalInBackground: false });
  // Every exception of the caller's scope reaches the stream (100–500 a minute at 100,000 sensors) and each answer is a scan of every carrier: at most one more read per EXCEPTION_GAP_S.
  useExceptionRefresh(() => {
    if (dueAgain(q.dataUpdatedAt, Date.now(), EXCEPTION_GAP_S)) void q.refetch();
  });
  const current = useRef(f);
  current.current = f;
  /** The carriers at one spot (a cluster that zooming cannot split), one by one for its popup; a spot of more than the server sends one by one gives its count. */
  const spot = useCallback(async (box: MapBox): Promise<{ points: MapPoint[]; count: number }> => {
    const e = 1e-5;
    const r = await call(dmMapRefs.mapClusters, { query: { ...current.current, west: box.west - e, south: box.south - e, east: box.east + e, north: box.north + e, zoom: 22 } });
    return { points: r.points, count: r.points.length + r.clusters.reduce((s, c) => s + c.count, 0) };
  }, []);
  return { ...q, spot };
}
