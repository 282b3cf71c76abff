import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { outOfRange, validDeviceNo } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../test/helper.js';
import { enrol, type Enrolled } from './test-fixtures.js';
import { parseData, VALUE_FIELDS } from './protocol.js';

/*
 * Property-based fuzz of the device protocol (issue 8): whatever a gateway sends, the parser
 * answers (never throws), every reading it lets through is inside the contract, and the whole
 * path to the database never fails on it — a bad message is refused, the ingest goes on.
 */

const value = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e39, -1e39, 1e-50, 5e-324, 327.67, -327.68, 0, null), fc.string(), fc.boolean());
const dev = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('T\u0000X', 'x\ud800', '', 'T1'), fc.integer());
const reading = fc.record({ dev, ts: fc.oneof(fc.integer({ min: -1, max: 4_102_444_800_000 }), fc.double(), fc.constant(Date.now())), temp: value, hum: value, volt: value, rssi: value, lqi: value, gas: value, door: value }, { requiredKeys: [] });
const payload = fc.oneof(
  fc.record({ readings: fc.array(reading, { maxLength: 8 }) }).map((o) => JSON.stringify(o)),
  fc.json(),
  fc.string(),
  fc.constantFrom('{"readings":[{"dev":"T1","ts":1,"temp":1e999}]}', '{"readings":null}', '[]', '{'),
);

describe('device protocol under random input', () => {
  it('the parser always answers, and lets through only readings inside the contract that carry a value', () => {
    fc.assert(
      fc.property(payload, (p) => {
        const r = parseData(p);
        if (!r.ok) return typeof r.reason === 'string' && r.reason.length > 0;
        return r.value.readings.every((x) => validDeviceNo(x.dev) && outOfRange(x) === null && x.ts >= Date.UTC(2000, 0, 1) && VALUE_FIELDS.some((k) => x[k] !== null));
      }),
      // Random records rarely hold a whole message of well-formed readings with no value at all: one is always tried.
      { numRuns: 2000, examples: [[JSON.stringify({ readings: [{ dev: 'T1', ts: Date.now() }, { dev: 'T1', ts: Date.now() + 1, temp: null }] })]] },
    );
  });

  describe('through the writer into the database', () => {
    let t: TestCtx;
    let g: Enrolled;
    beforeAll(async () => {
      t = await setup();
      g = await enrol(t.db, t.tenants.a.customerId, 2);
    }, 180_000);
    afterAll(() => t.close());

    it('never fails on a message: each is stored, refused or rejected, and the next good one is stored', async () => {
      const gw = (await t.ingest.authenticate(g.sn, g.secret))!;
      const known = fc.constantFrom(...g.sensors.map((s) => s.dev), 'T\u0000X', 'UNKNOWN1');
      const near = fc.integer({ min: Date.now() - 86_400_000, max: Date.now() + 3_600_000 });
      const message = fc.record({ readings: fc.array(fc.record({ dev: known, ts: near, temp: value, hum: value, volt: value, rssi: value, lqi: value, gas: value }, { requiredKeys: ['dev', 'ts'] }), { maxLength: 6 }) });
      await fc.assert(
        fc.asyncProperty(message, async (m) => {
          const r = await t.ingest.handle(gw, 'data', JSON.stringify(m));
          return r.accepted + r.duplicates + r.rejected >= 0;
        }),
        { numRuns: 60 },
      );
      const ok = await t.ingest.handle(gw, 'data', JSON.stringify({ readings: [{ dev: g.sensors[0].dev, ts: Date.now() - 1234, temp: 4.2 }] }));
      expect(ok).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
      expect(t.ingest.writer.stats.failedBatches).toBe(0);
    }, 120_000);
  });
});
