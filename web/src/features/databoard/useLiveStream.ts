/**
 * The live stream (GET /service/live/stream, Server-Sent Events) as a hook. Every component of
 * the page shares one connection (a browser allows only six per host over HTTP/1.1): the first
 * subscriber opens it, the last one closes it. Parsed events are handed over in batches (at
 * most one React update per `FLUSH_MS`), and the connection is re-opened with back-off when
 * the browser gives up on it.
 *
 * A subscriber may say which sensors it watches (`watch`: the board's cards): when every
 * subscriber of the page says so, the stream is opened for the union of their sensors
 * (`?sensors=`), so that a board over 100,000 sensors receives the readings of its page and not
 * the whole platform's; one that watches nothing (`watch: []`) wants exceptions only. The
 * connection is opened again when the union changes (a new page of cards).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LiveEvent } from '@coldwatch/contract';

export type StreamState = 'connecting' | 'connected' | 'disconnected';

const EVENT_TYPES = ['reading', 'exception', 'deviceStatus'] as const;
const URL_ = '/service/live/stream';
const FLUSH_MS = 500;

interface Subscriber {
  onEvents: (events: LiveEvent[]) => void;
  onOpen: () => void;
  onState: (s: StreamState) => void;
  /** The sensors it needs readings of; undefined = every sensor of the scope. */
  watch?: readonly number[];
}

/** The stream's address for these subscribers: every sensor unless all of them name theirs. */
export function streamUrl(subs: Iterable<Pick<Subscriber, 'watch'>>): string {
  const ids = new Set<number>();
  for (const s of subs) {
    if (!s.watch) return URL_;
    for (const id of s.watch) ids.add(id);
  }
  return `${URL_}?sensors=${[...ids].sort((a, b) => a - b).join(',')}`;
}

/** The one shared connection of this page. */
const hub = {
  subs: new Set<Subscriber>(),
  state: 'connecting' as StreamState,
  es: null as EventSource | null,
  url: URL_,
  rewatchTimer: undefined as ReturnType<typeof setTimeout> | undefined,
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
  hub.url = streamUrl(hub.subs);
  const es = new EventSource(hub.url, { withCredentials: true });
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

/** A subscriber's watch list changed: open the stream again if its address changes (once per burst of changes). */
function rewatch() {
  clearTimeout(hub.rewatchTimer);
  hub.rewatchTimer = setTimeout(() => {
    if (hub.subs.size === 0 || streamUrl(hub.subs) === hub.url) return;
    clearTimeout(hub.retryTimer);
    hub.es?.close();
    hub.es = null;
    hub.retry = 0;
    connect();
  }, 200);
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
    rewatch();
  }
  return () => {
    hub.subs.delete(sub);
    if (hub.subs.size > 0) return rewatch();
    clearInterval(hub.flushTimer);
    clearTimeout(hub.rewatchTimer);
    clearTimeout(hub.retryTimer);
    hub.es?.close();
    hub.es = null;
    hub.buffer = [];
    hub.retry = 0;
  };
}

/**
 * `watch`: the sensors whose readings the component needs (undefined: all of the scope; []:
 * none, exceptions only). A new list (by content) re-opens the shared stream if it changes its address.
 */
export function useLiveStream(onEvents: (events: LiveEvent[]) => void, opts: { onOpen?: () => void; watch?: readonly number[] } = {}): StreamState {
  const [state, setLocal] = useState<StreamState>(hub.state);
  const cb = useRef(onEvents);
  cb.current = onEvents;
  const openCb = useRef(opts.onOpen);
  openCb.current = opts.onOpen;
  const sub = useRef<Subscriber | null>(null);
  const watchKey = opts.watch?.join(',');
  const watch = useMemo(() => (watchKey === undefined ? undefined : watchKey ? watchKey.split(',').map(Number) : []), [watchKey]);
  const watchRef = useRef(watch);
  watchRef.current = watch;

  useEffect(() => {
    const me: Subscriber = { onEvents: (e) => cb.current(e), onOpen: () => openCb.current?.(), onState: setLocal, watch: watchRef.current };
    sub.current = me;
    return subscribe(me);
  }, []);
  useEffect(() => {
    if (!sub.current || sub.current.watch === watch) return;
    sub.current.watch = watch;
    rewatch();
  }, [watch]);

  return state;
}

/** Calls `refresh` (at most once per batch) when an exception opens, changes or ends: lists of exceptions stay live. */
export function useExceptionRefresh(refresh: () => void) {
  const cb = useRef(refresh);
  cb.current = refresh;
  useLiveStream(
    (events) => {
      if (events.some((e) => e.type === 'exception')) cb.current();
    },
    { watch: NONE },
  );
}

/** Exceptions only: no sensor's readings. */
const NONE: readonly number[] = [];
