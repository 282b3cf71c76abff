import type { Db } from '../platform/db/client.js';

/** First instant (UTC ms) of the month holding ts. */
export function monthStart(ts: number): number {
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

const nextMonth = (start: number) => {
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

export const partitionName = (start: number) => {
  const d = new Date(start);
  return `reading_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

/**
 * Monthly partitions of `reading`, made on demand before a batch is inserted, so that the
 * default partition stays an (empty) safety net. Known months are cached; the cache is
 * forgotten hourly because a retention job may drop old partitions.
 */
export class Partitions {
  private known = new Set<number>();
  private checkedAt = Date.now();
  private creating = new Map<number, Promise<void>>();

  constructor(private db: Db) {}

  async ensureFor(timestamps: Iterable<number>): Promise<void> {
    if (Date.now() - this.checkedAt > 3_600_000) {
      this.known.clear();
      this.checkedAt = Date.now();
    }
    const months = new Set<number>();
    for (const ts of timestamps) {
      const m = monthStart(ts);
      if (!this.known.has(m)) months.add(m);
    }
    for (const m of months) await this.ensure(m);
  }

  private ensure(start: number): Promise<void> {
    let p = this.creating.get(start);
    if (!p) {
      p = this.create(start).finally(() => this.creating.delete(start));
      this.creating.set(start, p);
    }
    return p;
  }

  private async create(start: number): Promise<void> {
    const name = partitionName(start);
    const exists = await this.db.one(`SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'reading'::regclass AND c.relname = $1`, [name]);
    if (!exists) {
      const from = new Date(start).toISOString();
      const to = new Date(nextMonth(start)).toISOString();
      try {
        // Built beside the parent and attached, so rows of that month that already sit in
        // the default partition move into it instead of making CREATE ... PARTITION OF fail.
        await this.db.tx(async (q) => {
          await q.query(`CREATE TABLE ${name} (LIKE reading INCLUDING DEFAULTS)`);
          await q.query(
            `WITH moved AS (DELETE FROM reading_default WHERE ts >= $1 AND ts < $2 RETURNING *) INSERT INTO ${name} SELECT * FROM moved`,
            [from, to],
          );
          await q.query(`ALTER TABLE reading ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
        });
      } catch (err) {
        // Another console replica made it first.
        const now = await this.db.one(`SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'reading'::regclass AND c.relname = $1`, [name]);
        if (!now) throw err;
      }
    }
    this.known.add(start);
  }
}

/**
 * Drops the monthly partitions of `reading` that end on or before `cutoff` (retention by
 * partition: no row-by-row delete, no bloat). Answers the names dropped; the rows of the
 * month that straddles the cutoff are left to a DELETE by the caller.
 */
export async function dropPartitionsBefore(db: Db, cutoff: number): Promise<string[]> {
  const parts = await db.query<{ relname: string }>(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'reading'::regclass ORDER BY 1`,
  );
  const dropped: string[] = [];
  for (const { relname } of parts) {
    const m = /^reading_(\d{4})_(\d{2})$/.exec(relname);
    if (!m) continue;
    const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1);
    if (nextMonth(start) > cutoff) continue;
    // Detach first so a reader of the parent never waits on the drop's lock for long.
    await db.tx(async (q) => {
      await q.query(`ALTER TABLE reading DETACH PARTITION ${relname}`);
      await q.query(`DROP TABLE ${relname}`);
    });
    dropped.push(relname);
  }
  return dropped;
}
