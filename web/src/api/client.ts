import { Code, type Envelope } from '@coldwatch/contract';

/** A failed call: the §8 body code and the server's message (already in the user's language). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus: number,
    readonly details?: Record<string, string>,
  ) {
    super(message);
  }
}

export type Params = Record<string, string | number | boolean | undefined | null>;

const TIMEOUT_MS = 10_000; // spec §9 request timeout

/** Listeners for the session-level reactions of spec §8 (expired → login, no permission → toast). */
type Listener = (e: ApiError) => void;
const listeners = new Set<Listener>();
/** Errors of calls made before anything listens (the boot's preloads, app/preload.ts): kept for the first listener. */
let early: ApiError[] = [];
export const onApiError = (l: Listener) => {
  listeners.add(l);
  const kept = early;
  early = [];
  kept.forEach((e) => l(e));
  return () => listeners.delete(l);
};
const told = (e: ApiError) => (listeners.size ? listeners.forEach((l) => l(e)) : early.length < 20 && early.push(e));

function url(path: string, params?: Params) {
  const u = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
  return u.pathname + u.search;
}

/**
 * One call: the envelope's result and the server's message (already in the user's language).
 * `quiet`: a failure is not told to the session reactions (a call made ahead of need, which
 * the page makes again and reports itself if it fails).
 */
export function request<T>(method: string, path: string, params?: Params, body?: unknown, quiet = false): Promise<{ result: T; msg: string }> {
  const json = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return exchange<T>(method, path, params, json, TIMEOUT_MS, quiet);
}

/** A multipart upload (one file, field `file`); uploads get 30 s. */
export function requestUpload<T>(path: string, params: Params | undefined, file: File): Promise<{ result: T; msg: string }> {
  const body = new FormData();
  body.append('file', file, file.name);
  return exchange<T>('POST', path, params, { body }, 30_000);
}

async function exchange<T>(method: string, path: string, params: Params | undefined, init: RequestInit, timeoutMs: number, quiet = false): Promise<{ result: T; msg: string }> {
  const tell = quiet ? () => undefined : told;
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(url(path, params), { method, credentials: 'same-origin', ...init, signal: ctrl.signal });
  } catch {
    const e = new ApiError(0, navigator.onLine ? 'timeout' : 'offline', 0);
    tell(e);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  let env: Envelope<T> | undefined;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    env = undefined;
  }
  if (!env || !env.state) {
    const e = new ApiError(Code.FAILED, '', res.status);
    tell(e);
    throw e;
  }
  if (env.state.code !== Code.OK) {
    // A failure's result is null, or the failing fields ({errors: {field: message}}).
    const details = (env.result as { errors?: Record<string, string> } | null | undefined)?.errors;
    const e = new ApiError(env.state.code, env.state.msg, res.status, details);
    tell(e);
    throw e;
  }
  return { result: env.result, msg: env.state.msg };
}


