import { SHARED_EVENTS, type Events } from '../events.js';

/** The one channel of the replicas' bus. */
export const CHANNEL = 'coldwatch_bus';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; what is left is for the prefix. */
export const PAYLOAD_LIMIT = 7_900;

export type SharedName = (typeof SHARED_EVENTS)[number];
export type WireEvent = { [K in SharedName]: [K, Events[K][0]] }[SharedName];

const shared = new Set<string>(SHARED_EVENTS);

/** Says "I am here" (a new replica): the others count their peers again at once. */
export const hello = (origin: string) => `${origin}|hello`;

/**
 * A commit's events as NOTIFY payloads `origin|[[name, data], …]`, each under the limit,
 * in order. A batch of 3,000 readings becomes about sixty payloads sent in one statement, and
 * each payload is whole JSON, so a receiver never waits for a next part. An event that alone
 * exceeds the limit can only be a directory change naming thousands of devices (an import):
 * it goes as "forget everything", which is always correct, only less precise.
 */
export function encode(origin: string, events: WireEvent[]): string[] {
  const out: string[] = [];
  const room = PAYLOAD_LIMIT - Buffer.byteLength(origin) - 3;
  let parts: string[] = [];
  let size = 0;
  const push = () => {
    if (parts.length) out.push(`${origin}|[${parts.join(',')}]`);
    parts = [];
    size = 0;
  };
  for (const e of events) {
    let json = JSON.stringify(e);
    let bytes = Buffer.byteLength(json);
    if (bytes > room) {
      if (e[0] !== 'directory') continue;
      json = JSON.stringify(['directory', {}]);
      bytes = Buffer.byteLength(json);
    }
    if (size + bytes + 1 > room) push();
    parts.push(json);
    size += bytes + 1;
  }
  push();
  return out;
}

export type Decoded = { origin: string; hello: true } | { origin: string; events: WireEvent[] };

/** A payload back into its events; null for anything that is not ours (another program on the channel). */
export function decode(payload: string): Decoded | null {
  const bar = payload.indexOf('|');
  if (bar <= 0) return null;
  const origin = payload.slice(0, bar);
  const body = payload.slice(bar + 1);
  if (body === 'hello') return { origin, hello: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const events = parsed.filter((e): e is WireEvent => Array.isArray(e) && e.length === 2 && shared.has(e[0]) && typeof e[1] === 'object' && e[1] !== null);
  return { origin, events };
}

