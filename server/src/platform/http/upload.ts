import type { FastifyRequest } from 'fastify';
import { Code, IMAGE_EXTENSIONS, imageKind } from '@coldwatch/contract';
import type { Db } from '../db/client.js';
import { writeLog, type AuditEntry } from '../audit/audit.js';
import { AppError } from './errors.js';

/**
 * Reads one uploaded image (spec §5 Uploads: JPG or PNG only): by its extension and by its first
 * bytes, below `maxBytes`; `tooLargeKey` names the limit in the user's language. The route's
 * plugin registers @fastify/multipart.
 */
export async function readImage(req: FastifyRequest, maxBytes: number, tooLargeKey: string): Promise<{ data: Buffer; mime: string }> {
  if (!req.isMultipart()) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const part = await req.file({ limits: { fileSize: maxBytes - 1, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const data = await part.toBuffer();
  if (part.file.truncated) throw new AppError(Code.FAILED, tooLargeKey);
  const ext = (part.filename.split('.').pop() ?? '').toLowerCase();
  const kind = imageKind(data);
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext) || !kind) throw new AppError(Code.FAILED, 'errors.upload.imageType');
  return { data, mime: kind === 'png' ? 'image/png' : 'image/jpeg' };
}

/** Reads an upload outside any transaction; a refused file still leaves its result-0 system-log row. */
export async function readLogged<T>(db: Db, req: FastifyRequest, entry: AuditEntry, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    await writeLog(db, req, entry, 0).catch(() => undefined);
    throw err;
  }
}

/** readImage, logged when refused. */
export const readImageLogged = (db: Db, req: FastifyRequest, maxBytes: number, tooLargeKey: string, entry: AuditEntry) =>
  readLogged(db, req, entry, () => readImage(req, maxBytes, tooLargeKey));
