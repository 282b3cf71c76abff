/**
 * The live stream (GET /service/live/stream, Server-Sent Events) as a hook: parsed events are
 * handed over in batches (at most one React update per `flushMs`), and the connection is
 * re-opened with back-off when the browser gives up on it.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '@coldwatch/contract';

export type StreamState = 'connecting' | 'connected' | 'disconnected';

const EVENT_TYPES = ['reading', 'exception', 'deviceStatus'] as const;

export function useLiveStream(onEvents: (events: LiveEvent[]) => void, opts: { onOpen?: () => void; flushMs?: number; url?: string } = {}): StreamState {
  const [state, setState] = useState<StreamState>('connecting');
  const cb = useRef(onEvents);
  cb.current = onEvents;
  const openCb = useRef(opts.onOpen);
  openCb.current = opts.onOpen;
  const url = opts.url ?? '/service/live/stream';
  const flushMs = opts.flushMs ?? 500;

  useEffect(() => {
    let es: EventSource | null = null;
    let buffer: LiveEvent[] = [];
    let retry = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;

    const flush = setInterval(() => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      cb.current(batch);
    }, flushMs);

    const connect = () => {
      if (closed) return;
      setState('connecting');
      es = new EventSource(url, { withCredentials: true });
      es.onopen = () => {
        retry = 0;
        setState('connected');
        openCb.current?.();
      };
      for (const type of EVENT_TYPES) {
        es.addEventListener(type, (e) => {
          try {
            buffer.push({ type, data: JSON.parse((e as MessageEvent).data) } as LiveEvent);
          } catch {
            /* a malformed event is skipped */
          }
        });
      }
      const giveUp = () => {
        if (!es) return;
        setState('disconnected');
        es.close();
        es = null;
        const delay = Math.min(30_000, 1000 * 2 ** retry);
        retry += 1;
        retryTimer = setTimeout(connect, delay);
      };
      // The server ends the stream with 'expired' when the session is gone: no blind reconnect loop.
      es.addEventListener('expired', giveUp);
      es.onerror = () => {
        if (!es) return;
        if (es.readyState === EventSource.CLOSED) {
          // The browser will not retry (HTTP error, wrong type): we do, with back-off.
          giveUp();
        } else {
          setState('connecting'); // the browser is reconnecting by itself
        }
      };
    };
    connect();

    return () => {
      closed = true;
      clearInterval(flush);
      clearTimeout(retryTimer);
      es?.close();
    };
  }, [url, flushMs]);

  return state;
}
