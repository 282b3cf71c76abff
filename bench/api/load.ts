/**
 * An open-loop load: GET `url` at a steady `rate` for `seconds`, each request sent when it is
 * due whether or not earlier ones have answered (as independent browsers would), on kept-alive
 * connections. autocannon's fixed rate sends each second's requests in one burst, which measures
 * the queue of the burst rather than the console. Runs as a child process of api.bench.ts and
 * prints one JSON line: `{ rps, p50, p99, max, bad }` (milliseconds).
 *
 * Usage: node --import tsx load.ts <url> <rate> <seconds> <headers as JSON>
 */
import http from 'node:http';

const [url, rateArg, secondsArg, headersArg] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const headers = JSON.parse(headersArg ?? '{}') as Record<string, string>;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const latencies: number[] = [];
let bad = 0;
let sent = 0;
const total = Math.round(rate * seconds);
const start = performance.now();

function one(): Promise<void> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        if (res.statusCode !== 200) bad++;
        latencies.push(performance.now() - t);
        resolve();
      });
    });
    req.on('error', () => {
      bad++;
      resolve();
    });
  });
}

const inflight: Promise<void>[] = [];
await new Promise<void>((done) => {
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    while (sent < due) {
      sent++;
      inflight.push(one());
    }
    if (sent >= total) return done();
    setTimeout(tick, 1);
  };
  tick();
});
await Promise.all(inflight);
const wall = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(1));
console.log(JSON.stringify({ rps: Number((latencies.length / wall).toFixed(1)), p50: pct(0.5), p99: pct(0.99), max: pct(1), bad }));
agent.destroy();
