/**
 * The live stream (GET /service/live/stream, Server-Sent Events) as a hook. Every component of
 * the page shares one connection (a browser allows only six per host over HTTP/1.1): the first
 * subscriber opens it, the last one closes it. Parsed events are handed over in batches (at
 * most one React update per `FLUSH_MS`), and the connection is re-opened with back-off when
 * the browser gives up on it.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '@coldwatch/contract';

export type StreamState = 'connecting' | 'connected' | 'disconnected';

const EVENT_TYPES = ['reading', 'exception', 'deviceStatus'] as const;
const URL_ = '/service/live/stream';
const FLUSH_MS = 500;

interface Subscriber {
  onEvents: (events: LiveEvent[]) => void;
  onOpen: () => void;
  onState: (s: StreamState) => void;
}

/** The one shared connection of this page. */
const hub = {
  subs: new Set<Subscriber>(),
  state: 'connecting' as StreamState,
  es: null as EventSource | null,
  buffer: [] as LiveEvent[],
  retry: 0,
  retryTimer: undefined as ReturnType<typeof setTimeout> | undefined,
  flushTimer: undefined as ReturnType<typeof setInterval> | undefined,
};

function setState(s: StreamState) {
  hub.state = s;
  for (const sub of hub.subs) sub.onState(s);
}

function connect() {
  if (hub.subs.size === 0) return;
  setState('connecting');
  const es = new EventSource(URL_, { withCredentials: true });
  hub.es = es;
  es.onopen = () => {
    hub.retry = 0;
    setState('connected');
    for (const sub of hub.subs) sub.onOpen();
  };
  for (const type of EVENT_TYPES) {
    es.addEventListener(type, (e) => {
      try {
        hub.buffer.push({ type, data: JSON.parse((e as MessageEvent).data) } as LiveEvent);
      } catch {
        /* a malformed event is skipped */
      }
    });
  }
  const giveUp = () => {
    if (hub.es !== es) return;
    setState('disconnected');
    es.close();
    hub.es = null;
    const delay = Math.min(30_000, 1000 * 2 ** hub.retry);
    hub.retry += 1;
    hub.retryTimer = setTimeout(connect, delay);
  };
  // The server ends the stream with 'expired' when the session is gone: no blind reconnect loop.
  es.addEventListener('expired', giveUp);
  es.onerror = () => {
    if (hub.es !== es) return;
    if (es.readyState === EventSource.CLOSED) giveUp(); // the browser will not retry (HTTP error, wrong type): we do, with back-off
    else setState('connecting'); // the browser is reconnecting by itself
  };
}

function subscribe(sub: Subscriber): () => void {
  hub.subs.add(sub);
  if (hub.subs.size === 1) {
    hub.flushTimer = setInterval(() => {
      if (hub.buffer.length === 0) return;
      const batch = hub.buffer;
      hub.buffer = [];
      for (const s of hub.subs) s.onEvents(batch);
    }, FLUSH_MS);
    connect();
  } else {
    sub.onState(hub.state);
  }
  return () => {
    hub.subs.delete(sub);
    if (hub.subs.size > 0) return;
    clearInterval(hub.flushTimer);
    clearTimeout(hub.retryTimer);
    hub.es?.close();
    hub.es = null;
    hub.buffer = [];
    hub.retry = 0;
  };
}

export function useLiveStream(onEvents: (events: LiveEvent[]) => void, opts: { onOpen?: () => void } = {}): StreamState {
  const [state, setLocal] = useState<StreamState>(hub.state);
  const cb = useRef(onEvents);
  cb.current = onEvents;
  const openCb = useRef(opts.onOpen);
  openCb.current = opts.onOpen;

  useEffect(
    () =>
      subscribe({
        onEvents: (e) => cb.current(e),
        onOpen: () => openCb.current?.(),
        onState: setLocal,
      }),
    [],
  );

  return state;
}

/** Calls `refresh` (at most once per batch) when an exception opens, changes or ends: lists of exceptions stay live. */
export function useExceptionRefresh(refresh: () => void) {
  const cb = useRef(refresh);
  cb.current = refresh;
  useLiveStream((events) => {
    if (events.some((e) => e.type === 'exception')) cb.current();
  });
}
