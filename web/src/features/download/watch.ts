import { call } from '../../api/call';
import { downloadRefs, type DownloadProgress } from '@coldwatch/contract';

/*
 * The browser's watch list of exports being generated (spec §4, §9): keys added when a task is
 * created and loaded by the login guard after page info (the caller's records still being
 * generated); polled every second by DownloadWatcher. A key leaves the list when its record
 * ends, and its end is told once (a success or failure notice).
 */

type Listener = () => void;
const keys = new Map<string, DownloadProgress | null>();
const listeners = new Set<Listener>();
const tell = () => listeners.forEach((l) => l());

export const watched = () => [...keys.keys()];
export const progressOf = (key: string) => keys.get(key) ?? null;

export function subscribe(l: Listener) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

export function watchExport(key: string) {
  if (!keys.has(key)) keys.set(key, null);
  tell();
}

export function update(p: DownloadProgress) {
  if (p.end) keys.delete(p.key);
  else keys.set(p.key, p);
  tell();
}

export function forget(key: string) {
  keys.delete(key);
  tell();
}

/** The login guard's load (§4): the caller's records being generated join the list. */
export async function loadDownloadProgress() {
  const rows = await call(downloadRefs.progress);
  for (const r of rows) if (!keys.has(r.key)) keys.set(r.key, r);
  tell();
}
