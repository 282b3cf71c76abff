/**
 * The attacker of guard.bench.ts, in a process of its own (its buffers must not count in the
 * broker's memory): N connections to the broker, each announcing a CONNECT of ANNOUNCED bytes
 * and sending SENT of them, then silent. Prints `ready` once every connection is open and its
 * bytes are written (to the kernel, which sends them as the broker reads), then one JSON line when every connection has closed or
 * HOLD_MS has passed: `{ opened, closedByBroker, lastCloseMs }` (ms from the first connect).
 *
 * Usage: node --import tsx attack.ts <port> <n> <announced> <sent> <holdMs>
 */
import net from 'node:net';

const [port, n, announced, sent, holdMs] = process.argv.slice(2).map(Number);

const length: number[] = [];
for (let x = announced; ; ) {
  length.push((x % 128) | (x >= 128 ? 128 : 0));
  x = Math.floor(x / 128);
  if (!x) break;
}
// One buffer for every connection: the kernel copies it, this process holds it once.
const bytes = Buffer.concat([Buffer.from([0x10, ...length]), Buffer.alloc(sent, 0x41)]);

const t0 = performance.now();
let opened = 0;
let closedByBroker = 0;
let lastCloseMs = 0;
let ending = false;
const sockets: net.Socket[] = [];
const open: Promise<void>[] = [];
const closed: Promise<void>[] = [];
for (let i = 0; i < n; i++) {
  const s = net.connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  sockets.push(s);
  open.push(
    new Promise<void>((r) => {
      s.once('connect', () => {
        opened++;
        s.write(bytes);
        r();
      });
      s.once('close', () => r());
    }),
  );
  closed.push(
    new Promise<void>((r) =>
      s.once('close', () => {
        if (!ending) {
          closedByBroker++;
          lastCloseMs = performance.now() - t0;
        }
        r();
      }),
    ),
  );
}
await Promise.all(open);
console.log('ready');
await Promise.race([Promise.all(closed), new Promise((r) => setTimeout(r, holdMs))]);
ending = true;
console.log(JSON.stringify({ opened, closedByBroker, lastCloseMs: Math.round(lastCloseMs) }));
for (const s of sockets) s.destroy();
process.exit(0);
