import type { Queryable } from '../../platform/db/client.js';
import * as repo from './param.repository.js';

/**
 * The origin of the monitor map's tile URL (parameter `map_tile_url`), for the CSP's img-src:
 * the browser may load tiles from that one server and no other. A change reaches every
 * replica at once as a `param` event (app.ts); the reread once a minute is the backstop for
 * an event lost while the replicas' channel was down.
 */
const TTL_MS = 60_000;
let cached: { origin: string | null; at: number } = { origin: null, at: 0 };
let loading: Promise<void> | null = null;

/** The tile server's origin ("https://{s}.tile.example.org" → "https://*.tile.example.org"), or null. */
export function originOf(url: string): string | null {
  const m = /^(https?):\/\/([^/?#]+)/.exec(url);
  if (!m) return null;
  const host = m[2].replace(/\{s\}/g, '*');
  return /[{}]/.test(host) ? null : `${m[1]}://${host}`;
}

export function rememberTileUrl(url: string) {
  cached = { origin: originOf(url), at: Date.now() };
}

/** The current origin, refreshed in the background when stale (the answer in hand is used meanwhile). */
export function tileOrigin(db: Queryable): string | null {
  if (Date.now() - cached.at > TTL_MS && !loading) {
    loading = repo
      .get(db, 'map_tile_url')
      .then(rememberTileUrl)
      .catch(() => undefined)
      .finally(() => (loading = null));
  }
  return cached.origin;
}

/** Loads the parameter once, before the first request is served. */
export async function loadTileOrigin(db: Queryable) {
  rememberTileUrl(await repo.get(db, 'map_tile_url'));
}
