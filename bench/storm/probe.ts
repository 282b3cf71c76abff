/**
 * A few list calls of the console while something else happens: every `everyMs` the next of
 * `paths` (round robin) is asked, whether or not the earlier ones have answered (an operator's
 * browsers do not wait for each other), until stop(). Latencies per path, and the answers that
 * were not a 200 with state code OK (a database outage shows there).
 */
import { Code } from '@coldwatch/contract';
import { pct } from '../ingest/alarm-latency.js';

export interface ProbeResult {
  path: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
  bad: number;
}

export function probeApi(base: string, headers: Record<string, string>, paths: string[], everyMs = 200) {
  const lat = new Map(paths.map((p) => [p, [] as number[]]));
  const bad = new Map(paths.map((p) => [p, 0]));
  const pending = new Set<Promise<void>>();
  let i = 0;
  const ask = (path: string) => {
    const t = performance.now();
    const p = fetch(base + path, { headers })
      .then(async (r) => {
        const body = (await r.json().catch(() => null)) as { state?: { code?: number } } | null;
        if (r.status !== 200 || body?.state?.code !== Code.OK) bad.set(path, bad.get(path)! + 1);
        else lat.get(path)!.push(performance.now() - t);
      })
      .catch(() => void bad.set(path, bad.get(path)! + 1))
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const timer = setInterval(() => ask(paths[i++ % paths.length]), everyMs);
  return {
    async stop(): Promise<ProbeResult[]> {
      clearInterval(timer);
      await Promise.all([...pending]);
      return paths.map((path) => {
        const xs = lat.get(path)!;
        return { path, n: xs.length, p50: Math.round(pct(xs, 50)), p99: Math.round(pct(xs, 99)), max: Math.round(Math.max(0, ...xs)), bad: bad.get(path)! };
      });
    },
  };
}

export const formatProbe = (rs: ProbeResult[]) => rs.map((r) => `${r.path.replace(/\?.*/, '')}: n=${r.n} p50 ${r.p50} ms p99 ${r.p99} ms max ${r.max} ms${r.bad ? `, ${r.bad} not answered 200` : ''}`).join('; ');
