import pg from 'pg';
const url = 'postgres://postgres@127.0.0.1:5432/cw_bench';
class CopyIn { done!: (e?: Error) => void; finished = new Promise<void>((res, rej) => (this.done = (e) => (e ? rej(e) : res()))); error?: Error;
  constructor(private sql: string, private data: Buffer) {}
  submit(c: any) { c.query(this.sql); } handleCopyInResponse(c: any) { c.sendCopyFromChunk(this.data); c.endCopyFrom(); }
  handleCommandComplete() {} handleError(e: Error) { this.error = e; } handleReadyForQuery() { this.done(this.error); }
  handleRowDescription() {} handleDataRow() {} handleEmptyQuery() {} handlePortalSuspended() {} handleCopyData() {} }
const c = new pg.Client(url);
await c.connect();
const [{ id: sid }] = (await c.query('SELECT min(id) AS id FROM sensor')).rows;
const [{ customer_id }] = (await c.query('SELECT customer_id FROM sensor WHERE id = $1', [sid])).rows;
const N = 2000;
let base = Date.now() - 86400_000 * 2 + Math.floor(Math.random() * 1e6) * 1000;
for (let k = 0; k < 6; k++) {
  const t0 = performance.now();
  let text = '';
  for (let i = 0; i < N; i++) text += `${sid + (i % 400)}\t${new Date((base += 1)).toISOString()}\t${customer_id}\t4.5\t50\t3.01\t-70\t180\t\\N\t\\N\n`;
  const tb = performance.now();
  await c.query('BEGIN');
  await c.query('SAVEPOINT r');
  const q = new CopyIn('COPY reading (sensor_id, ts, customer_id, temp, hum, volt, rssi, lqi, gas, door) FROM STDIN', Buffer.from(text));
  c.query(q as any); await q.finished;
  await c.query('RELEASE SAVEPOINT r');
  const t1 = performance.now();
  await c.query('COMMIT');
  const t2 = performance.now();
  console.log(`build ${Math.round(tb - t0)} ms, copy ${N}: ${Math.round(t1 - tb)} ms, commit ${Math.round(t2 - t1)} ms`);
}
await c.end();
