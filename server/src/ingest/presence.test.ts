import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, type Enrolled } from './test-fixtures.js';
import { JobRunner } from '../platform/jobs/runner.js';
import type { Db, Queryable } from '../platform/db/client.js';
import { scanDevices } from './presence.js';

/*
 * The presence scan is retried when the database is away (spec issue 27 "Bad input and
 * faults"): run by the job runner, a scan cut off by the database going away commits nothing of
 * the step it was in, is run again as soon as the database is back, and opens each connection
 * exception once, with its notices once, however many tries failed, and also when the database
 * committed but the answer was lost with the connection.
 */

let t: TestCtx;
let gw: Enrolled;
const quiet = { info: () => undefined, error: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await setup();
  gw = await enrol(t.db, t.tenants.a.customerId, 3);
  const carrier = (await t.db.one<{ carrier_id: number }>('SELECT carrier_id FROM gateway WHERE id = $1', [gw.gatewayId]))!.carrier_id;
  const contact = await t.db.one<{ id: number }>(`INSERT INTO contact (customer_id, name, email) VALUES ($1, 'Night nurse', 'night@alpha.test') RETURNING id`, [gw.customerId]);
  await t.db.query('INSERT INTO carrier_contact (customer_id, carrier_id, contact_id) VALUES ($1, $2, $3)', [gw.customerId, carrier, contact!.id]);
}, 180_000);
afterAll(() => t?.close());

const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });

/**
 * The database as the runner and the scan see it. `dropAt` names the statement at which the
 * connection drops: that statement fails, its transaction is rolled back, and from then on every
 * call fails (the runner's own included) until the test brings the database back (`down = false`).
 * With `afterCommit`, a transaction commits and then its answer is lost.
 */
interface Outage {
  down: boolean;
  dropAt?: (sql: string) => boolean;
  afterCommit?: (out: { opened?: unknown[] }) => boolean;
  tries: number;
}
/** Rolls the real transaction back without telling the real pool of an outage (on PostgreSQL it would mark itself down). */
class Dropped extends Error {}
function flaky(db: Db, o: Outage): Db {
  const check = (text: string) => {
    if (o.down) return new Dropped();
    if (o.dropAt?.(text)) {
      o.down = true;
      o.tries++;
      return new Dropped();
    }
    return null;
  };
  const guard = (q: Queryable): Queryable => ({
    query: (text, params) => {
      const err = check(text);
      return err ? Promise.reject(err) : q.query(text, params);
    },
    run: (text, params) => q.run(text, params),
    exec: (text) => q.exec(text),
    copyIn: (target, data) => {
      const err = check(`COPY ${target}`);
      return err ? Promise.reject(err) : q.copyIn(target, data);
    },
  });
  return {
    ...db,
    query: (text, params) => (o.down ? Promise.reject(lost()) : guard(db).query(text, params)),
    tx: async (fn) => {
      if (o.down) throw lost();
      let out;
      try {
        out = await db.tx((q) => fn(guard(q)));
      } catch (err) {
        throw err instanceof Dropped ? lost() : err;
      }
      if (o.afterCommit?.(out as { opened?: unknown[] })) {
        o.tries++;
        throw lost();
      }
      return out;
    },
  } as Db;
}

const silence = () => t.db.query(`UPDATE sensor SET status = 1, last_ts = now() - interval '30 minutes' WHERE gateway_id = $1`, [gw.gatewayId]);
const opened = () => t.db.query<{ id: number; sensor_id: number }>(`SELECT id, sensor_id FROM exception_record WHERE category = 'sensor_connect' AND gateway_id = $1 ORDER BY sensor_id`, [gw.gatewayId]);
const mails = () => t.db.query<{ exception_id: number }>(`SELECT exception_id FROM notice_log WHERE recipient = 'night@alpha.test'`);
const jobState = () => t.db.one<{ state: string; attempts: number }>(`SELECT state, attempts FROM job WHERE name = 'presence' ORDER BY id DESC LIMIT 1`);

describe('the presence scan through a database outage', () => {
  it('a scan cut off mid-transaction commits nothing; retried by the runner when the database is back, it opens each exception once', async () => {
    await silence();
    // The connection drops while the notices of the opened exceptions are written: after the
    // statement that marked the sensors and opened their exceptions, before the commit.
    const o: Outage = { down: false, dropAt: (sql) => sql.includes('COPY notice_log'), tries: 0 };
    const db = flaky(t.db, o);
    const runner = new JobRunner(db, quiet, 60_000).register('presence', { run: async () => ({ ...(await scanDevices(db, t.bus)) }) });
    await runner.runNow('presence');
    await runner.kick();
    expect(o.tries).toBe(1);
    // Rolled back whole: the sensors still running, no exception, no notice.
    expect(await opened()).toEqual([]);
    expect((await t.db.query(`SELECT status FROM sensor WHERE gateway_id = $1`, [gw.gatewayId])).map((r) => r.status)).toEqual([1, 1, 1]);
    // Still away: the runner's polls fail too, and nothing changes.
    await runner.kick();
    await runner.kick();
    expect(await opened()).toEqual([]);
    // Back: the run whose outcome could not be written is queued again at once and runs.
    o.down = false;
    o.dropAt = undefined;
    await runner.kick();
    expect(await jobState()).toMatchObject({ state: 'done' });
    const rows = await opened();
    expect(rows.map((r) => r.sensor_id)).toEqual(gw.sensors.map((s) => s.id).sort((x, y) => x - y));
    expect((await mails()).map((m) => Number(m.exception_id)).sort()).toEqual(rows.map((r) => Number(r.id)).sort());
    // The next runs open nothing more.
    await runner.runNow('presence');
    await runner.kick();
    expect(await opened()).toEqual(rows);
    expect(await mails()).toHaveLength(3);
    await runner.stop();
  });

  it('a scan whose commit went through but whose answer was lost is run again and doubles nothing', async () => {
    await t.db.query(`UPDATE exception_record SET ongoing = false, end_ts = now() WHERE category = 'sensor_connect' AND gateway_id = $1`, [gw.gatewayId]);
    await t.db.query(`DELETE FROM notice_log WHERE recipient = 'night@alpha.test'`);
    await silence();
    const before = (await opened()).length;
    // The answer of the step that opened the exceptions is lost (the runner sees a dropped connection).
    const o: Outage = { down: false, afterCommit: (out) => !!out.opened?.length, tries: 0 };
    const db = flaky(t.db, o);
    const runner = new JobRunner(db, quiet, 60_000).register('presence', { run: async () => ({ ...(await scanDevices(db, t.bus)) }) });
    await runner.runNow('presence');
    await runner.kick();
    expect(o.tries).toBe(1);
    expect((await opened()).length).toBe(before + 3);
    o.afterCommit = undefined;
    await runner.kick();
    expect(await jobState()).toMatchObject({ state: 'done' });
    expect((await opened()).length).toBe(before + 3);
    expect(await mails()).toHaveLength(3);
    await runner.stop();
  });
});
