import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../../platform/db/client.js';
import { createCustomerWithAdmin } from '../../platform/seed/root.js';
import { storeDownload } from './download.service.js';
import { CHUNK_BYTES, chunkTotals, readChunks } from './download.store.js';

/*
 * The file store (migration 0050): storeDownload writes a file as chunks and ends its record
 * generated with size and SHA-256; the file reads back whole; a failed making leaves the record
 * failed with its reason and no chunk; a changed chunk is caught by the SHA-256 on the way out.
 */

let db: Db;
let drop: () => Promise<void>;
let owner: { customerId: number; userId: number };

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  owner = await createCustomerWithAdmin(db, { name: 'Store Hospital', code: 'STORE', account: 'store', password: 'store123' });
}, 60_000);
afterAll(() => drop());

const recordRow = (id: number) => db.one<{ status: string; size: number; sha256: string; error: string | null; kind: string; format: string; progress: number }>('SELECT status, size, sha256, error, kind, format, progress FROM download_record WHERE id = $1', [id]);

describe('download store', () => {
  it('stores a buffer, a stream and a writer as chunks, and reads each back whole', async () => {
    const big = Buffer.alloc(CHUNK_BYTES * 2 + 1234, 'x');
    big.write('start', 0);
    big.write('end', big.length - 3);
    for (const produce of [big, Readable.from([big.subarray(0, 1000), big.subarray(1000)]), async (out: NodeJS.WritableStream) => void out.end(big)]) {
      const s = await storeDownload(db, { ...owner, kind: 'report', name: 'Fridge 2026-05.pdf', criteria: { carrierId: 1 } }, produce as never);
      expect(s.size).toBe(big.length);
      expect(s.sha256).toBe(createHash('sha256').update(big).digest('hex'));
      expect(await recordRow(s.id)).toMatchObject({ status: 'generated', size: big.length, kind: 'report', format: 'pdf', progress: 100, error: null });
      expect(await chunkTotals(db, { id: s.id, customerId: owner.customerId })).toEqual({ chunks: 3, bytes: big.length });
      const back = await text(readChunks(db, { id: s.id, customerId: owner.customerId }, s));
      expect(back.length).toBe(big.length);
      expect(back.startsWith('start') && back.endsWith('end')).toBe(true);
    }
  });

  it('a failure leaves the record failed with its reason and no chunk', async () => {
    const failing = async (out: NodeJS.WritableStream) => {
      out.write(Buffer.alloc(CHUNK_BYTES + 10));
      await new Promise((r) => setTimeout(r, 10));
      throw new Error('the printer caught fire');
    };
    await expect(storeDownload(db, { ...owner, kind: 'report', name: 'broken.pdf' }, failing as never)).rejects.toThrow('the printer caught fire');
    const [{ id }] = await db.query<{ id: number }>(`SELECT id FROM download_record WHERE name = 'broken.pdf'`);
    expect(await recordRow(id)).toMatchObject({ status: 'failed', size: null, sha256: null, error: 'errors.export.failed|the printer caught fire' });
    expect(await chunkTotals(db, { id, customerId: owner.customerId })).toEqual({ chunks: 0, bytes: 0 });
  });

  it('a chunk changed in the database is caught on the way out', async () => {
    const s = await storeDownload(db, { ...owner, kind: 'export', name: 'table.csv' }, Buffer.from('a,b\r\n1,2\r\n'));
    await db.query(`UPDATE download_chunk SET data = 'a,b\r\n9,9\r\n'::bytea WHERE record_id = $1`, [s.id]);
    await expect(text(readChunks(db, { id: s.id, customerId: owner.customerId }, s))).rejects.toThrow(/SHA-256/);
  });
});
