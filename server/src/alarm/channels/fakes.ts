import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server in the test process standing for an SMS or voice provider: it keeps every
 * request and answers with what the test's `answer` says, including never (a hung provider,
 * released by `release()`). Used by the channel tests and the ingest bench's webhook sink.
 */
export interface FakeRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
export type FakeAnswer = { status: number; body?: string } | 'hang';

export async function fakeProvider(answer: (r: FakeRequest) => FakeAnswer = () => ({ status: 200, body: '{"ok":true}' })) {
  const requests: FakeRequest[] = [];
  const hung: http.ServerResponse[] = [];
  const state = { answer };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(r);
      const a = state.answer(r);
      if (a === 'hang') return void hung.push(res);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    set answer(f: (r: FakeRequest) => FakeAnswer) {
      state.answer = f;
    },
    /** Answers every hung request with 200 (they may have timed out on the caller's side already). */
    release() {
      for (const res of hung.splice(0)) if (!res.writableEnded) res.writeHead(200).end('{"late":true}');
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of hung.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
