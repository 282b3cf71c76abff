/**
 * What the console allocates, seen through its inspector (the console started with
 * `--inspect=127.0.0.1:{port}`): V8's sampling heap profiler asked to keep the samples of objects
 * already collected too, so that its profile counts every byte allocated over the window (the
 * garbage of a minute's burst), not only what survived it as `--heap-prof` does; and the heap's
 * figures (`v8.getHeapStatistics()`) beside the RSS. A client of the DevTools protocol over the
 * WebSocket of Node itself: no dependency.
 */

import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  callFrame: Frame;
  selfSize: number;
  children: ProfileNode[];
}

export interface Inspector {
  send<T = unknown>(method: string, params?: object): Promise<T>;
  close(): void;
}

export async function connectInspector(port: number): Promise<Inspector> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.onmessage = (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const p = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id!);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  };
  return {
    send<T>(method: string, params: object = {}) {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
    close: () => ws.close(),
  };
}

/**
 * The console's heap (v8.getHeapStatistics, in MB): used, reserved and the limit V8 grows it to;
 * and the memory of its buffers outside the heap (process.memoryUsage().external).
 */
export async function heapFigures(insp: Inspector): Promise<{ used: number; total: number; limit: number; external: number }> {
  // `require` is the inspector's command-line API in the console's main context.
  const expression = `(() => { const h = require('node:v8').getHeapStatistics(); return JSON.stringify([h.used_heap_size, h.total_heap_size, h.heap_size_limit, process.memoryUsage().external]); })()`;
  const { result } = await insp.send<{ result: { value?: string } }>('Runtime.evaluate', { expression, includeCommandLineAPI: true });
  const [used, total, limit, external] = (JSON.parse(result.value ?? '[0,0,0,0]') as number[]).map((b) => b / 2 ** 20);
  return { used, total, limit, external };
}

/** Starts counting every allocation (a sample every 32 KB), collected or not. */
export async function startAllocations(insp: Inspector) {
  await insp.send('HeapProfiler.enable');
  await insp.send('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}

/** Places in the compiled console (server/dist/main.js) as places in server/src, through its source map. */
function sourcePlaces(): (f: Frame) => string | undefined {
  const dist = fileURLToPath(new URL('../../server/dist/main.js.map', import.meta.url));
  const map = new SourceMap(JSON.parse(readFileSync(dist, 'utf8')));
  return (f) => {
    if (!f.url.endsWith('server/dist/main.js')) return undefined;
    const e = map.findEntry(f.lineNumber, f.columnNumber);
    return 'originalSource' in e ? `${e.originalSource.replace(/^.*\/server\/src\//, '')}:${e.originalLine + 1}` : undefined;
  };
}

const rank = (m: Map<string, number>, top: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([site, b]) => ({ mb: b / 2 ** 20, site }));

/**
 * The bytes allocated since startAllocations, in all, by the place that allocated them (the top
 * `top`), and by the console's own function nearest to it on the stack (what of ours made a
 * library allocate: pg's parameter text, its result rows).
 */
export async function stopAllocations(insp: Inspector, top = 25) {
  const { profile } = await insp.send<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
  const place = sourcePlaces();
  const name = (f: Frame, at: string) => `${f.functionName || '(anonymous)'} ${at}`;
  const bySite = new Map<string, number>();
  const byOurs = new Map<string, number>();
  let total = 0;
  const walk = (n: ProfileNode, ours: string) => {
    const f = n.callFrame;
    const src = place(f);
    const here = src ? name(f, src) : ours;
    if (n.selfSize) {
      const site = name(f, src ?? `${f.url.replace(/^.*\/node_modules\//, '')}:${f.lineNumber + 1}`);
      bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
      byOurs.set(here, (byOurs.get(here) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, here);
  };
  walk(profile.head, '(not under the console\'s code)');
  return { totalMb: total / 2 ** 20, sites: rank(bySite, top), ours: rank(byOurs, top) };
}
