import type { Db } from '../db/client.js';

/**
 * Resolved sessions kept between requests (docs/performance.md "Signed-in API"): resolving one
 * is a statement and a round trip, on every signed-in request. Migration 0029 makes every
 * table a session is resolved from announce its changes on `coldwatch_auth`; any notice, a new
 * pool connection and the close of the pool's last one (a gap in listening) forget every
 * cached session. A resolution
 * that was under way while a notice came is not kept (the epoch moved), so a cached entry was
 * always read after the last change that was heard.
 *
 * PostgreSQL only: PGlite has no pool to listen on, and resolves each time.
 */
export class SessionCache<Row> {
  private epoch = 0;
  private rows = new Map<string, { row: Row; epoch: number; at: number }>();

  constructor(private readonly opts: { maxAgeMs: number; maxEntries: number }) {}

  /** The epoch to hand to `keep` after reading a row. */
  get now() {
    return this.epoch;
  }

  get(key: string): Row | undefined {
    const e = this.rows.get(key);
    if (!e) return undefined;
    // A last guard against a notice that never came (a connection lost while it was sent).
    if (e.epoch !== this.epoch || Date.now() - e.at > this.opts.maxAgeMs) {
      this.rows.delete(key);
      return undefined;
    }
    return e.row;
  }

  keep(key: string, row: Row, readAt: number) {
    if (readAt !== this.epoch) return;
    if (this.rows.size >= this.opts.maxEntries) this.rows.clear();
    this.rows.set(key, { row, epoch: readAt, at: Date.now() });
  }

  forget() {
    this.epoch++;
    this.rows.clear();
  }
}

const caches = new WeakMap<Db, SessionCache<unknown>>();

/** The session cache of this database, listening for changes from its first use; undefined on PGlite. */
export function sessionCacheOf<Row>(db: Db): SessionCache<Row> | undefined {
  if (!db.onNotice) return undefined;
  let cache = caches.get(db);
  if (!cache) {
    const c = new SessionCache<unknown>({ maxAgeMs: 60_000, maxEntries: 20_000 });
    db.onNotice('coldwatch_auth', () => c.forget());
    caches.set(db, (cache = c));
  }
  return cache as SessionCache<Row>;
}
