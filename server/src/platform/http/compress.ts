import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/*
 * API answers (JSON of 1 KB or more) are compressed in one call, not through a stream.
 * @fastify/compress pipes every payload, strings included, through four stream layers
 * (duplexify, peek-stream, through2, the zlib stream): about 0.4 ms of the console's CPU on
 * each list page, a tenth of its work (docs/performance.md, "Signed-in API"). It still handles
 * what really is a stream (exports, files); this hook runs first and marks its answers encoded,
 * which that plugin then leaves alone.
 */

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);
const brotli = (quality: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
});
/**
 * Below this, compressing on the event loop costs less than handing the work to a thread, at
 * quality 1: a 10 KB sensor page in 0.09 ms to 1.2 KB (quality 4: 0.16 ms, 1.0 KB). Larger
 * answers (the board's whole list, MBs) go to a thread at quality 4, as @fastify/compress does.
 */
const SYNC_BELOW = 64 * 1024;
const BROTLI_SMALL = brotli(1);
const BROTLI_LARGE = brotli(4);

export type Encoding = 'br' | 'gzip';

/** The encoding to answer with, from an Accept-Encoding header: brotli, else gzip, none refused by q=0. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const offered = new Map<string, number>();
  for (const part of [header].flat().join(',').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (e: string) => {
    const q = offered.get(e) ?? offered.get('*');
    return q !== undefined && q > 0;
  };
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

export async function compressed(payload: string | Buffer, encoding: Encoding): Promise<Buffer> {
  const small = Buffer.byteLength(payload) < SYNC_BELOW;
  if (encoding === 'br') return small ? zlib.brotliCompressSync(payload, BROTLI_SMALL) : brotliAsync(payload, BROTLI_LARGE);
  return small ? zlib.gzipSync(payload, { level: 1 }) : gzipAsync(payload);
}

/** Compresses JSON answers of at least `threshold` bytes for the clients that accept it. */
export function compressJsonAnswers(app: FastifyInstance, threshold: number) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (Buffer.byteLength(payload) < threshold || reply.hasHeader('content-encoding')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const encoding = req.headers['x-no-compression'] === undefined ? acceptedEncoding(req.headers['accept-encoding']) : undefined;
    if (!encoding) return payload;
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed(payload, encoding);
  });
}
