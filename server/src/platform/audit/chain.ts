import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Queryable } from '../db/client.js';
import { crossTenant } from '../db/kysely.js';

/*
 * The system log's hash chains (migration 0030, docs/security.md "System log"). The database
 * chains every row as it is written; this file checks the chains from outside it and moves
 * their start when retention removes old rows.
 *
 * The check recomputes each hash here, in TypeScript, rather than calling the database's
 * sys_log_hash(): a function an intruder could have replaced must not be the one that
 * vouches for the rows.
 */

/** The hash a chain starts from. */
export const GENESIS = Buffer.alloc(32);

/** A row as the chain sees it; the time and the parameters as the database renders them. */
export interface ChainRow {
  id: number;
  seq: number;
  /** created_at in microseconds since the epoch, as text (more than a double holds exactly). */
  us: string;
  customer_id: number | null;
  user_id: number | null;
  operator: string;
  ip: string | null;
  module: string;
  method: string;
  content: string;
  /** params::text: jsonb's own rendering, the same for the same value. */
  params: string | null;
  result: number;
  prev_hash: Buffer;
  hash: Buffer;
}

const field = (v: string | number | null) => (v === null ? '-' : `${Buffer.byteLength(String(v), 'utf8')}:${v}`);

/** The text the row's hash is taken over: sys_log_hash() of migration 0030, field by field. */
export function canonical(r: Omit<ChainRow, 'hash'>): string {
  return [
    'sys_log v1',
    field(r.seq),
    field(r.id),
    field(r.us),
    field(r.customer_id),
    field(r.user_id),
    field(r.operator),
    field(r.ip),
    field(r.module),
    field(r.method),
    field(r.content),
    field(r.params),
    field(r.result),
    field(r.prev_hash.toString('hex')),
  ].join('\n');
}

export const rowHash = (r: Omit<ChainRow, 'hash'>) => createHash('sha256').update(canonical(r), 'utf8').digest();

/** PGlite answers bytea as a Uint8Array, node-postgres as a Buffer; a hash is 32 bytes, so a copy costs nothing. */
const buf = (v: Uint8Array | null) => (v === null ? null : Buffer.from(v));

const all = (q: Queryable) => crossTenant(q, 'the chains of every customer are checked and trimmed together');

// ---- verify --------------------------------------------------------------------------------

/**
 * changed: a row's content no longer matches its hash. inserted: a row that is not where the
 * chain says (outside it, linked to the wrong row, past its head, doubling a position).
 * deleted: positions missing between rows, at the start or at the end (the head records more).
 * chain: the bookkeeping itself (a head or anchor out of place, a trigger disabled).
 */
export type FindingKind = 'changed' | 'inserted' | 'deleted' | 'chain';

export interface Finding {
  kind: FindingKind;
  /** The chain's customer; null for the rows without one. */
  customerId: number | null;
  /** The rows concerned (sys_log ids), when there are any. */
  ids: number[];
  message: string;
}

export interface VerifyReport {
  chains: number;
  rows: number;
  findings: Finding[];
  /** Each chain's head: what to note down outside the database to catch a rewrite of the whole tail. */
  heads: { customerId: number | null; lastSeq: number; lastId: number | null; lastHash: string }[];
}

const customerOf = (chain: number) => (chain === 0 ? null : chain);
const positions = (from: number, to: number) => (from === to ? `position ${from}` : `positions ${from}-${to}`);
const rowCount = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
const TRIGGERS = { sys_log_zz_chain: 'rows written meanwhile are not chained', sys_log_guard: 'rows may be updated or deleted unseen by the database' } as const;

/** Rows are read a page at a time, so a log of any size is checked in bounded memory. */
const PAGE = 5_000;

export async function verifyLog(q: Queryable, opts: { pageSize?: number } = {}): Promise<VerifyReport> {
  const k = all(q);
  const findings: Finding[] = [];
  const report: VerifyReport = { chains: 0, rows: 0, findings, heads: [] };

  const { rows: triggers } = await sql<{ name: string; enabled: string }>`
    SELECT tgname AS name, tgenabled AS enabled FROM pg_trigger WHERE tgrelid = 'sys_log'::regclass AND NOT tgisinternal`.execute(k);
  for (const [name, effect] of Object.entries(TRIGGERS)) {
    const t = triggers.find((x) => x.name === name);
    if (!t || t.enabled === 'D') findings.push({ kind: 'chain', customerId: null, ids: [], message: `trigger ${name} on sys_log is ${t ? 'disabled' : 'missing'}: ${effect}` });
  }

  const { rows: loose } = await sql<{ id: number; customer_id: number | null }>`
    SELECT id, customer_id FROM sys_log WHERE seq IS NULL OR hash IS NULL OR prev_hash IS NULL ORDER BY id`.execute(k);
  for (const r of loose) findings.push({ kind: 'inserted', customerId: r.customer_id, ids: [r.id], message: `row #${r.id} is outside the chain (written with the chain's trigger off)` });

  const heads = new Map(
    (await k.selectFrom('sys_log_chain').select(['chain', 'last_seq', 'last_id', 'last_hash']).execute()).map((h) => [h.chain, { ...h, last_hash: buf(h.last_hash)! }]),
  );
  const anchors = (await k.selectFrom('sys_log_anchor').selectAll().orderBy('chain').orderBy('first_seq').orderBy('id').execute()).map((a) => ({ ...a, prev_hash: buf(a.prev_hash)! }));
  const { rows: present } = await sql<{ chain: number }>`SELECT DISTINCT coalesce(customer_id, 0) AS chain FROM sys_log WHERE seq IS NOT NULL`.execute(k);
  const chains = [...new Set([...heads.keys(), ...anchors.map((a) => a.chain), ...present.map((p) => p.chain)])].sort((a, b) => a - b);
  report.chains = chains.length;

  for (const chain of chains) {
    const customerId = customerOf(chain);
    const find = (kind: FindingKind, ids: number[], message: string) => findings.push({ kind, customerId, ids, message });
    const head = heads.get(chain);

    // Retention's cuts: each starts where the previous one ended, and removed every position it covers.
    let start = 1;
    let startHash: Buffer = GENESIS;
    for (const a of anchors.filter((x) => x.chain === chain)) {
      if (a.from_seq !== start) find('chain', [], `anchor #${a.id} removed from position ${a.from_seq}, but the chain then began at position ${start}`);
      const span = a.first_seq - a.from_seq;
      if (a.removed !== span) {
        find('deleted', a.last_removed_id ? [a.last_removed_id] : [], `retention (anchor #${a.id}) removed ${rowCount(a.removed)} at ${positions(a.from_seq, a.first_seq - 1)}, where the chain had ${span}: ${span - a.removed} ${span - a.removed === 1 ? 'was' : 'were'} already missing`);
      }
      start = a.first_seq;
      startHash = a.prev_hash;
    }

    let expectSeq = start;
    let expectPrev: Buffer = startHash;
    let last: { id: number; seq: number; hash: Buffer; intact: boolean } | undefined;
    let after = { seq: 0, id: 0 };
    for (;;) {
      const { rows } = await sql<Omit<ChainRow, 'prev_hash' | 'hash'> & { prev_hash: Uint8Array; hash: Uint8Array }>`
        SELECT id, seq, (extract(epoch FROM created_at) * 1000000)::bigint::text AS us, customer_id, user_id, operator, ip, module, method, content,
               params::text AS params, result, prev_hash, hash
          FROM sys_log
         WHERE coalesce(customer_id, 0) = ${chain} AND seq IS NOT NULL AND hash IS NOT NULL AND prev_hash IS NOT NULL
           AND seq >= ${after.seq} AND (seq > ${after.seq} OR id > ${after.id})
         ORDER BY seq, id
         LIMIT ${opts.pageSize ?? PAGE}`.execute(k);
      for (const raw of rows) {
        const r: ChainRow = { ...raw, prev_hash: buf(raw.prev_hash)!, hash: buf(raw.hash)! };
        report.rows++;
        const intact = rowHash(r).equals(r.hash);
        if (!intact) find('changed', [r.id], `row #${r.id} (position ${r.seq}) no longer matches its hash: changed after it was written`);
        if (head && r.seq > head.last_seq) {
          find('inserted', [r.id], `row #${r.id} at position ${r.seq} lies past the chain's head (position ${head.last_seq})`);
        } else if (last && r.seq === last.seq) {
          find('inserted', [last.id, r.id], `rows #${last.id} and #${r.id} both claim position ${r.seq}`);
        } else if (r.seq < expectSeq) {
          find('inserted', [r.id], `row #${r.id} at position ${r.seq} lies before the chain's start (position ${expectSeq}), which retention moved past it`);
        } else if (r.seq > expectSeq) {
          find('deleted', last ? [last.id, r.id] : [r.id], `${rowCount(r.seq - expectSeq)} missing at ${positions(expectSeq, r.seq - 1)}, ${last ? `between #${last.id} and #${r.id}` : `before #${r.id}, the first row kept`}`);
        } else if (!r.prev_hash.equals(expectPrev) && (last?.intact ?? true)) {
          // A changed predecessor already explains a broken link; an intact one does not.
          find(
            'inserted',
            last ? [last.id, r.id] : [r.id],
            last
              ? `row #${r.id} does not link to row #${last.id}: #${last.id} was put in the place of the row written there, or #${r.id}'s link was changed`
              : `row #${r.id}, the first of the chain, does not link to the chain's start: it replaced the row written there`,
          );
        }
        if (!(head && r.seq > head.last_seq)) {
          expectSeq = r.seq + 1;
          expectPrev = r.hash;
          last = { id: r.id, seq: r.seq, hash: r.hash, intact };
        }
        after = { seq: r.seq, id: r.id };
      }
      if (rows.length < (opts.pageSize ?? PAGE)) break;
    }

    if (!head) {
      if (last || expectSeq > 1) find('chain', last ? [last.id] : [], `the chain has no head record (sys_log_chain): it was deleted`);
      continue;
    }
    report.heads.push({ customerId, lastSeq: head.last_seq, lastId: head.last_id, lastHash: head.last_hash.toString('hex') });
    const lastSeq = expectSeq - 1;
    if (head.last_seq > lastSeq) {
      find(
        'deleted',
        [...(last ? [last.id] : []), ...(head.last_id ? [head.last_id] : [])],
        `${rowCount(head.last_seq - lastSeq)} missing at the end of the chain (${positions(lastSeq + 1, head.last_seq)}${head.last_id ? `, the last was #${head.last_id}` : ''})${last ? `, after #${last.id}` : ''}`,
      );
    } else if (!head.last_hash.equals(expectPrev) && (last?.intact ?? true)) {
      if (last) find('inserted', [last.id], `row #${last.id}, the last of the chain, is not the row its head recorded (#${head.last_id}): it was replaced`);
      else find('chain', [], `the chain's head does not match the hash its start (the last anchor) recorded`);
    }
  }
  return report;
}

// ---- retention -----------------------------------------------------------------------------

/**
 * Removes the rows of each chain older than `before` (or than its `holdFrom` date, when earlier)
 * from the chain's start, and records the
 * new start as an anchor first (the database refuses to delete a row no anchor has passed).
 * A chain stops at its first row not older than `before`: an old row after a younger one
 * (its transaction began earlier) waits for the next run, so no row goes before its time.
 * Answers the rows removed.
 */
export async function trimLog(db: Db, before: Date, holdFrom: ReadonlyMap<number, Date> = new Map()): Promise<number> {
  const { rows: chains } = await sql<{ chain: number }>`
    SELECT DISTINCT coalesce(customer_id, 0) AS chain FROM sys_log WHERE created_at < ${before} AND seq IS NOT NULL ORDER BY 1`.execute(all(db));
  let removed = 0;
  // One short transaction per chain: a customer's log writers wait for its own cut, never for everyone's.
  for (const { chain } of chains) {
    // A chain whose customer still needs older rows (an open exception) is cut no later than that.
    const held = holdFrom.get(chain);
    const cutoff = held && held < before ? held : before;
    removed += await db.tx((q) => trimChain(q, chain, cutoff));
  }
  return removed;
}

/** Key of the advisory lock (with the chain) that keeps two retention runs from cutting one chain at once. */
const TRIM_LOCK = 0x61756474; // 'audt'

async function trimChain(q: Queryable, chain: number, before: Date): Promise<number> {
  const k = all(q);
  await sql`SELECT pg_advisory_xact_lock(${TRIM_LOCK}::int4, ${chain}::int4)`.execute(k);
  const start = Number((await k.selectFrom('sys_log_anchor').select((eb) => eb.fn.max('first_seq').as('s')).where('chain', '=', chain).executeTakeFirst())?.s ?? 1);
  const firstKept = async () =>
    (
      await sql<{ seq: number; prev_hash: Uint8Array }>`
        SELECT seq, prev_hash FROM sys_log
         WHERE coalesce(customer_id, 0) = ${chain} AND seq >= ${start} AND created_at >= ${before} AND prev_hash IS NOT NULL
         ORDER BY seq LIMIT 1`.execute(k)
    ).rows[0];
  let keep = await firstKept();
  if (!keep) {
    // Every row is old: the chain's next row, not yet written, will be the first kept. Holding
    // the head keeps a writer from adding it between this look and the cut.
    const head = await sql<{ last_seq: number; last_hash: Uint8Array }>`SELECT last_seq, last_hash FROM sys_log_chain WHERE chain = ${chain} FOR UPDATE`.execute(k);
    keep = (await firstKept()) ?? (head.rows[0] && { seq: head.rows[0].last_seq + 1, prev_hash: head.rows[0].last_hash });
    if (!keep) return 0;
  }
  if (keep.seq <= start) return 0;
  const cut = sql`coalesce(customer_id, 0) = ${chain} AND seq >= ${start} AND seq < ${keep.seq}`;
  const gone = (
    await sql<{ n: number; last_id: number | null; last_at: Date | null }>`SELECT count(*)::int AS n, max(id) AS last_id, max(created_at) AS last_at FROM sys_log WHERE ${cut}`.execute(k)
  ).rows[0];
  await k
    .insertInto('sys_log_anchor')
    .values({ chain, from_seq: start, first_seq: keep.seq, prev_hash: buf(keep.prev_hash)!, removed: gone.n, last_removed_id: gone.last_id, last_removed_at: gone.last_at, cutoff: before })
    .execute();
  const done = await sql`DELETE FROM sys_log WHERE ${cut}`.execute(k);
  return Number(done.numAffectedRows ?? 0);
}
