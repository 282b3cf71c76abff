import { describe, expect, it } from 'vitest';
import { DbUnavailableError, isConnectionError, Outage } from './outage.js';

describe('isConnectionError', () => {
  it('names the database being away', () => {
    for (const err of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], ''),
      new DbUnavailableError('reconnecting'),
    ])
      expect(isConnectionError(err), String(err)).toBe(true);
  });
  it('does not mistake a refused statement for an outage', () => {
    for (const err of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('value out of range'), { code: '22003' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      new Error('syntax error at or near "SELEC"'),
      null,
      undefined,
    ])
      expect(isConnectionError(err), String(err)).toBe(false);
  });
});

describe('Outage', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

  it('fails calls at once while down, probes with back-off, and comes back on the first probe that answers', async () => {
    let probes = 0;
    const at: number[] = [];
    const started = Date.now();
    const outage = new Outage(async () => {
      at.push(Date.now() - started);
      if (++probes < 3) throw refused();
    });
    const changes: boolean[] = [];
    outage.watch((down) => changes.push(down));
    await expect(outage.guard(() => Promise.reject(refused()))).rejects.toThrow('ECONNREFUSED');
    expect(outage.down).toBe(true);
    let called = false;
    await expect(outage.guard(async () => (called = true))).rejects.toBeInstanceOf(DbUnavailableError);
    expect(called).toBe(false);
    while (outage.down) await new Promise((r) => setTimeout(r, 20));
    expect(probes).toBe(3);
    // 0.1 s, then 0.25 s, then 0.5 s after each failed probe.
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(240);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(490);
    expect(changes).toEqual([true, false]);
    expect(await outage.guard(async () => 'answered')).toBe('answered');
    outage.close();
  });

  it('stays up when a statement is refused, or when every pooled connection is busy', async () => {
    const outage = new Outage(async () => undefined);
    await expect(outage.guard(() => Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' })))).rejects.toThrow('duplicate key');
    const busy = new Error('timeout exceeded when trying to connect');
    await expect(outage.guard(() => Promise.reject(busy))).rejects.toBe(busy);
    // Still answered as "try again" (503) at the edge.
    expect(isConnectionError(busy)).toBe(true);
    expect(outage.down).toBe(false);
    outage.close();
  });
});
