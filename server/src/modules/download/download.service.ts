import type { Queryable } from '../../platform/db/client.js';
import { createRecord, markFailed, markGenerated, markStarted, type NewRecord, type RecordRef } from './download.repository.js';
import { removeChunks, writeChunks, type Produce, type StoredFile } from './download.store.js';

/*
 * Making a download record's file (docs/exports.md "Lifecycle"): the record is being generated
 * while its chunks are written; it ends generated (size, SHA-256) or failed with its reason,
 * and a failed file leaves no chunk. Exports run this from their job (jobs/export); a module
 * that has its file at hand (a PDF report) stores it at once with storeDownload.
 */

export interface StoreMeta {
  customerId: number;
  userId: number;
  /** 'export' (retention: export_retention_days) or 'report' (kept). */
  kind: NewRecord['kind'];
  /** The file name as downloaded, with its extension (`.pdf`, `.xlsx`). */
  name: string;
  criteria?: Record<string, unknown>;
  /** What it holds; defaults to the kind. */
  source?: string;
  /** Defaults to the name's extension. */
  format?: string;
}

export interface Stored extends StoredFile {
  id: number;
  key: string;
}

const formatOf = (name: string) => {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return ['xlsx', 'csv', 'pdf', 'zip'].includes(ext) ? ext : 'pdf';
};

/** A reason to keep on the record: our message key, or the error's own text. */
export const reasonOf = (err: unknown) => {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.startsWith('errors.') ? msg : `errors.export.failed|${msg}`;
};

/**
 * Makes the record's file: writes what `produce` makes into its chunks and ends the record
 * generated, or failed with the reason (its chunks removed) and rethrows. When even that cannot
 * be written (the database went away), the record stays being generated with its start time
 * set, and the next try of its job ends it failed (`interrupted`): never generating for ever.
 */
export async function generate(q: Queryable, rec: RecordRef, produce: Produce, rows?: () => number | null): Promise<StoredFile> {
  try {
    const file = await writeChunks(q, rec, produce);
    await markGenerated(q, rec, { ...file, rows: rows?.() ?? null });
    return file;
  } catch (err) {
    try {
      await removeChunks(q, rec);
      await markFailed(q, rec, reasonOf(err));
    } catch {
      // The database is away: the record is ended by the next try (above), or by the retention sweep.
    }
    throw err;
  }
}

/**
 * Creates a download record of the customer's user and stores `produce` as its file: a Buffer,
 * a Readable, or a writer given the sink. Answers the record's id and key (what the download
 * centre shows and the browser watches) and the stored file's size and SHA-256. A failure
 * leaves the record failed with its reason and no file, and is thrown on.
 *
 *   const { id } = await storeDownload(db, { customerId, userId, kind: 'report', name: 'Fridge 1 2026-05.pdf', criteria }, pdfBuffer);
 */
export async function storeDownload(q: Queryable, meta: StoreMeta, produce: Produce): Promise<Stored> {
  const rec = await createRecord(q, {
    customerId: meta.customerId,
    userId: meta.userId,
    kind: meta.kind,
    source: meta.source ?? meta.kind,
    name: meta.name,
    format: meta.format ?? formatOf(meta.name),
    criteria: meta.criteria ?? {},
  });
  await markStarted(q, rec);
  const file = await generate(q, rec, produce);
  return { id: rec.id, key: rec.key, ...file };
}
