/**
 * Carriers read from the server a page at a time (the board's page, the table's, a home widget's
 * top rows) kept current by the shared live stream for their own sensors only (`?sensors=`): a
 * fresh answer is merged with what the stream told since (monitorState.ts `mergeFresh`), and an
 * exception asks the caller to read again (the carrier's state, and so its place, may change), at
 * most once per EXCEPTION_GAP_MS (readAgain.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { paramRefs, type LiveEvent } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveStream, type StreamState } from './useLiveStream';
import { applyEvents, mergeFresh, type MonitorCarrier } from './monitorState';
import { ReadAgain } from './readAgain';

/**
 * Fallback refresh while the stream is down: the "monitoring auto-refresh (seconds)" parameter
 * of /sys/paramsetup (spec §3); this is its default.
 */
export const REFRESH_DOWN_S = 30;

/** The seconds between refreshes while the stream is down: the parameter's value, or the default when it is missing or not a number. */
/** The least time between two reads that exceptions ask for; the cards on screen change with the stream meanwhile. */
export const EXCEPTION_GAP_MS = 10_000;

export const refreshDownS = (stored: string | undefined) => (Number(stored) >= 1 ? Number(stored) : REFRESH_DOWN_S);

/**
 * How often such a reader reads again: `upS` while the stream is up (it keeps the rows), the
 * "monitoring auto-refresh" parameter's seconds while it is down. Set `streamRef` from useLiveRows.
 */
export function useRefreshEvery() {
  const streamRef = useRef<StreamState>('connecting');
  const params = useCall(paramRefs.list, undefined, { staleTime: 300_000 });
  const downS = refreshDownS(params.data?.monitor_refresh_seconds);
  return { streamRef, downS, every: (upS: number) => () => (streamRef.current === 'connected' ? upS : downS) * 1000 };
}

export function useLiveRows(rows: MonitorCarrier[] | undefined, on: { exception: () => void; open: () => void }) {
  const [carriers, setCarriers] = useState<MonitorCarrier[]>([]);
  const calls = useRef(on);
  calls.current = on;
  const [again] = useState(() => new ReadAgain(EXCEPTION_GAP_MS, () => calls.current.exception()));
  useEffect(() => () => again.stop(), [again]);
  const onEvents = useCallback(
    (events: LiveEvent[]) => {
      setCarriers((cur) => applyEvents(cur, events));
      if (events.some((e) => e.type === 'exception')) again.ask();
    },
    [again],
  );
  // Compared by content (useLiveStream): a new value on a card does not open the stream again.
  const watch = useMemo(() => carriers.flatMap((c) => c.sensors.map((s) => s.id)), [carriers]);
  const streamState = useLiveStream(onEvents, { onOpen: () => calls.current.open(), watch });

  useEffect(() => {
    if (rows === undefined) return;
    setCarriers((cur) => mergeFresh(rows, cur));
  }, [rows]);
  return { carriers, streamState };
}
