/**
 * The console side of guard.bench.ts's memory phase, a fresh process per run so that no run
 * inherits another's heap: the bench database, one enrolled gateway, ingest with its embedded
 * broker (the guard as given, or the configuration's). Prints `{ port, sn, secret, dev }`,
 * then on stdin `mark` starts sampling its resident set every 20 ms and `report` prints
 * `{ idleMb, peakMb, endMb }` and exits.
 *
 * Usage: node --import tsx broker.ts '<guard JSON or {}>'
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../server/src/config.js';
import { prepareDb } from '../../server/src/platform/db/prepare.js';
import { Bus } from '../../server/src/platform/events.js';
import { startIngest } from '../../server/src/ingest/index.js';
import { enrol } from '../../server/src/ingest/test-fixtures.js';
import { openBenchDb } from '../ingest/db.js';

const guard = JSON.parse(process.argv[2] ?? '{}');
const bench = await openBenchDb();
await prepareDb(bench.db);
const tag = Date.now().toString(36).toUpperCase();
const [cust] = await bench.db.query<{ id: number }>(`INSERT INTO customer (name, code) VALUES ($1, $2) RETURNING id`, [`Bench guard ${tag}`, `G${tag}`]);
const g = await enrol(bench.db, cust.id, 1);
const config = loadConfig({ DEMO: '1', LOG_LEVEL: 'warn' } as NodeJS.ProcessEnv);
const ingest = await startIngest({ config, db: bench.db, bus: new Bus() }, { mqttPort: 0, mqttPortExplicit: false, host: '127.0.0.1', presence: false, guard });
console.log(JSON.stringify({ port: ingest.mqttPort, sn: g.sn, secret: g.secret, dev: g.sensors[0].dev }));

const mb = () => process.memoryUsage().rss / 2 ** 20;
let idleMb = 0;
let peakMb = 0;
let sampler: NodeJS.Timeout | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'mark') {
    await new Promise((r) => setTimeout(r, 500));
    idleMb = peakMb = mb();
    sampler = setInterval(() => (peakMb = Math.max(peakMb, mb())), 20);
    console.log('marked');
  } else if (line === 'report') {
    clearInterval(sampler);
    console.log(JSON.stringify({ idleMb, peakMb: Math.max(peakMb, mb()), endMb: mb() }));
    break;
  }
}
await ingest.stop();
await bench.close();
process.exit(0);
