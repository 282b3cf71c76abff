import { describe, expect, it } from 'vitest';
import { Health } from './health.js';

describe('Fault', () => {
  it('is logged once when it begins and once when it ends, with its duration', async () => {
    const lines: [string, object, string][] = [];
    const health = new Health(() => ({ error: (o, m) => lines.push(['error', o, m]), warn: (o, m) => lines.push(['warn', o, m]) }));
    const f = health.fault('broker');
    f.end();
    expect(lines).toEqual([]);
    f.begin('connection refused');
    f.begin('connection refused');
    f.begin('still refused');
    expect(f.cause).toBe('still refused');
    await new Promise((r) => setTimeout(r, 120));
    f.end('subscribed again');
    f.end();
    expect(lines.map(([level, , msg]) => [level, msg.replace(/[\d.]+ s$/, 'N s')])).toEqual([
      ['error', 'broker: connection refused'],
      ['warn', 'broker: subscribed again after N s'],
    ]);
    expect((lines[1][1] as { durationS: number }).durationS).toBeGreaterThanOrEqual(0.1);
    expect([f.active, f.starts, health.all().length]).toEqual([false, 1, 1]);
  });
});
