import { describe, expect, it } from 'vitest';
import { decode, encode, hello, PAYLOAD_LIMIT, type WireEvent } from './wire.js';

const reading = (i: number): WireEvent => ['reading', { customerId: 1, sensorId: i, devNo: `T${i}`, carrierId: 7, ts: 1_700_000_000_000 + i, temp: 4.25, hum: 51 }];

describe('the replicas bus wire', () => {
  it('cuts a commit of 3,000 readings into payloads under the NOTIFY limit, whole and in order', () => {
    const events = Array.from({ length: 3000 }, (_, i) => reading(i));
    const payloads = encode('a', events);
    expect(payloads.length).toBeGreaterThan(30);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PAYLOAD_LIMIT);
    const back = payloads.flatMap((p) => {
      const d = decode(p);
      if (!d || 'hello' in d) throw new Error('not events');
      expect(d.origin).toBe('a');
      return d.events;
    });
    expect(back).toEqual(events);
  });

  it('sends a directory change too large for one payload as "forget everything", and never a half event', () => {
    const sensors = Array.from({ length: 2000 }, (_, i) => `SENSOR${String(i).padStart(8, '0')}`);
    const [one, ...rest] = encode('b', [['directory', { sensors, close: true }], reading(1)]);
    expect(rest).toEqual([]);
    expect(decode(one)).toEqual({ origin: 'b', events: [['directory', {}], reading(1)] });
  });

  it('reads hellos and ignores what is not ours', () => {
    expect(decode(hello('r-1'))).toEqual({ origin: 'r-1', hello: true });
    expect(decode('no bar at all')).toBeNull();
    expect(decode('|[]')).toBeNull();
    expect(decode('x|{not json')).toBeNull();
    expect(decode('x|{"a":1}')).toBeNull();
    // Unknown event names and malformed entries are dropped; the rest is kept.
    expect(decode('x|[["gatewayEvent",{}],["reading"],["exception",null],["param",{"key":"k","value":"v"}]]')).toEqual({ origin: 'x', events: [['param', { key: 'k', value: 'v' }]] });
  });
});
