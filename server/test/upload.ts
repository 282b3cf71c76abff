import type { TestCtx } from './helper.js';

/** A multipart body with one file part. */
export function multipart(filename: string, data: Buffer, contentType = 'application/octet-stream') {
  const boundary = '----coldwatch' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs one file as English-speaking `cookie`'s user. */
export function uploadAs(t: TestCtx, url: string, cookie: string, filename: string, data: Buffer, type?: string) {
  const m = multipart(filename, data, type);
  return t.app.inject({ method: 'POST', url, payload: m.payload, headers: { ...m.headers, cookie, 'accept-language': 'en-US' } });
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes that start like a PNG (the server checks the signature, not the whole picture). */
export const png = (size: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(Math.max(0, size - PNG_HEAD.length), 7)]);
export const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 1)]);
