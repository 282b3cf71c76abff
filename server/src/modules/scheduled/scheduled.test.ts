import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { call } from '../shared/records.fixture.js';
import { startJobs } from '../../jobs/index.js';
import type { JobRunner } from '../../platform/jobs/runner.js';

/* /sys/scheduled: the platform's administrators see the periodic jobs and run one now; customers cannot. */

let t: TestCtx;
let root: string;
let alpha: string;
let jobs: JobRunner;

beforeAll(async () => {
  t = await setup();
  jobs = await startJobs(t.deps, { pollMs: 60_000 });
  root = await t.login('admin');
  alpha = await t.login('alpha');
}, 180_000);
afterAll(async () => {
  await jobs.stop();
  await t.close();
});

describe('/sys/scheduled', () => {
  it('lists every periodic job with its schedule and its last run', async () => {
    await jobs.kick();
    const list = await call(t, root, 'GET', '/service/scheduled/list');
    expect(list.map((j: { name: string }) => j.name)).toEqual(['alarm-notice', 'alarm-resume', 'backup', 'calibration-notice', 'config-timeout', 'display-buzzer', 'loan-return', 'presence', 'relay-switch', 'report-schedule', 'retention', 'rollup', 'vacuum', 'verify-task']);
    const presence = list.find((j: { name: string }) => j.name === 'presence');
    expect(presence).toMatchObject({ everyS: 30, lastState: 'done', running: false, queued: false });
    expect(presence).toMatchObject({ lastFigures: { offline: 0 }, lastError: '' });
    expect(presence.nextRunAt).toBeGreaterThan(Date.now());
  });

  it('run now queues one run, which the runner does; a double click queues nothing more', async () => {
    const before = (await call(t, root, 'GET', '/service/scheduled/list')).find((j: { name: string }) => j.name === 'retention').lastRunAt;
    await jobs.stop(); // so that the run waits where we can see it
    const first = await t.app.inject({ method: 'POST', url: '/service/scheduled/run?name=retention', headers: { cookie: root } });
    expect(first.json().result).toEqual({ queued: true });
    const second = await t.app.inject({ method: 'POST', url: '/service/scheduled/run?name=retention', headers: { cookie: root } });
    expect(second.json().result).toEqual({ queued: false });
    expect((await call(t, root, 'GET', '/service/scheduled/list')).find((j: { name: string }) => j.name === 'retention').queued).toBe(true);
    jobs = await startJobs(t.deps, { pollMs: 60_000 });
    await jobs.kick();
    const after = (await call(t, root, 'GET', '/service/scheduled/list')).find((j: { name: string }) => j.name === 'retention');
    expect(after).toMatchObject({ queued: false, lastState: 'done' });
    expect(after.lastRunAt).toBeGreaterThanOrEqual(before);
    expect(after.lastFigures).toMatchObject({ readings: 0, logs: 0 });
  });

  it('an unknown job is 404 and changes nothing', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/service/scheduled/run?name=nosuch', headers: { cookie: root, 'accept-language': 'en-US' } });
    expect(r.statusCode).toBe(404);
    expect(r.json().state.msg).toBe('No such job');
    expect(await t.db.one(`SELECT count(*)::int AS n FROM job WHERE name = 'nosuch'`)).toEqual({ n: 0 });
  });

  it('a customer administrator may neither see nor run jobs', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/service/scheduled/list', headers: { cookie: alpha } })).json().state.code).toBe(500102);
    expect((await t.app.inject({ method: 'POST', url: '/service/scheduled/run?name=rollup', headers: { cookie: alpha } })).json().state.code).toBe(500102);
  });
});
