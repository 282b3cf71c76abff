import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

const unitOf = async (cookie: string, number: string) => (await call(t, cookie, 'GET', '/service/share/unit')).find((u: { number: string }) => u.number === number);

describe('units of measure (spec §3, §5: unit, mark and number required and unique)', () => {
  it('every signed-in user reads the seeded catalogue', async () => {
    const units = await call(t, a.cookie, 'GET', '/service/share/unit');
    expect(units.map((u: { number: string }) => u.number)).toEqual(expect.arrayContaining(['temp', 'hum', 'volt', 'rssi', 'lqi', 'gas']));
    expect(units.find((u: { number: string }) => u.number === 'temp')).toMatchObject({ mark: '°C', valueType: 'decimal', rangeCount: 1 }); // the caller's own
  });

  it('only the platform manages it: a customer administrator gets 500102', async () => {
    expect((await req(a.cookie, 'POST', '/service/unit/add', { unit: 'Pressure', mark: 'kPa', number: 'press' })).state.code).toBe(500102);
  });

  it('adds, refuses each duplicate (any letter case) and each bad field, changes, deletes', async () => {
    const root = await t.login('admin');
    const added = await call(t, root, 'POST', '/service/unit/add', { unit: 'Pressure', mark: 'kPa', number: 'press', valueType: 'decimal', description: 'Cold-room door seal' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ unit: 'pressure', mark: 'x1', number: 'x1' }, 418, 'The unit already exists'],
      [{ unit: 'P2', mark: 'KPA', number: 'x2' }, 418, 'The mark already exists'],
      [{ unit: 'P3', mark: 'x3', number: 'PRESS' }, 420, 'The number already exists'],
    ];
    for (const [body, code, msg] of cases) expect((await req(root, 'POST', '/service/unit/add', body)).state).toEqual({ code, msg });
    for (const [body, field] of [
      [{ unit: '', mark: 'm', number: 'n1' }, 'unit'],
      [{ unit: 'U', mark: 'm'.repeat(11), number: 'n1' }, 'mark'],
      [{ unit: 'U', mark: 'm', number: 'n 1' }, 'number'],
      [{ unit: 'U', mark: 'm', number: 'n1', valueType: 'colour' }, 'valueType'],
    ] as const) {
      const r = await req(root, 'POST', '/service/unit/add', body);
      expect(r.status, JSON.stringify(r)).toBe(400);
      expect(r.result.errors).toHaveProperty(field);
    }
    await call(t, root, 'PUT', '/service/unit/update', { id: added.id, unit: 'Pressure', mark: 'hPa', number: 'press', valueType: 'number' });
    expect((await call(t, root, 'GET', '/service/unit/page?unit=pres')).rows).toEqual([expect.objectContaining({ mark: 'hPa', valueType: 'number' })]);
    expect(await call(t, root, 'DELETE', `/service/unit/del?ids=${added.id}`)).toEqual({ deleted: 1 });
  });

  it('a unit a range uses cannot be deleted, and nothing is', async () => {
    const root = await t.login('admin');
    const temp = await unitOf(root, 'temp');
    const r = await req(root, 'DELETE', `/service/unit/del?ids=${temp.id}`);
    expect(r.state).toEqual({ code: 500000, msg: 'The unit is used by monitoring ranges' });
    expect(await unitOf(root, 'temp')).toBeTruthy();
  });
});

describe('monitoring ranges (spec §5: one per unit, min ≤ max, two decimals)', () => {
  it.each([
    ['min equal to max', { min: 10, max: 10 }, null],
    ['two decimals', { min: -0.25, max: 99.99 }, null],
    ['min above max', { min: 80, max: 20 }, 'min'],
    ['three decimals', { min: 1.234, max: 5 }, 'min'],
    ['max missing', { min: 1 }, 'max'],
    ['beyond the column', { min: 0, max: 100000 }, 'max'],
  ] as const)('%s', async (_l, over, field) => {
    const hum = await unitOf(b.cookie, 'hum');
    const r = await req(b.cookie, 'POST', '/service/range/add', { unitId: hum.id, ...over });
    if (field === null) {
      expect(r.state.code).toBe(200000);
      await call(t, b.cookie, 'DELETE', `/service/range/del?ids=${r.result.id}`);
    } else {
      expect(r.status).toBe(400);
      expect(r.result.errors).toHaveProperty(field);
    }
  });

  it('refuses a second range for one unit of a customer, allows it for another customer', async () => {
    const temp = await unitOf(a.cookie, 'temp');
    expect((await req(a.cookie, 'POST', '/service/range/add', { unitId: temp.id, min: 0, max: 10 })).state).toEqual({
      code: 500000,
      msg: 'This customer already has a range for this unit',
    });
    const volt = await unitOf(a.cookie, 'volt');
    const moved = await req(a.cookie, 'PUT', '/service/range/update', { id: a.rangeId, unitId: volt.id, min: 2.5, max: 3.6 });
    expect(moved.state.code).toBe(200000);
    expect((await req(a.cookie, 'POST', '/service/range/add', { unitId: 99999, min: 0, max: 1 })).result.errors).toHaveProperty('unitId');
    await call(t, a.cookie, 'PUT', '/service/range/update', { id: a.rangeId, unitId: temp.id, min: -40, max: 85 });
  });

  it('share/probeRange answers the caller\'s own ranges, one unit by its number', async () => {
    const all = await call(t, a.cookie, 'GET', '/service/share/probeRange');
    expect(all).toEqual([expect.objectContaining({ id: a.rangeId, number: 'temp', mark: '°C', min: -40, max: 85 })]);
    expect(await call(t, a.cookie, 'GET', '/service/share/probeRange?key=hum')).toEqual([]);
    expect((await call(t, b.cookie, 'GET', '/service/share/probeRange')).map((r: { id: number }) => r.id)).toEqual([b.rangeId]);
    expect((await req(b.cookie, 'GET', `/service/range/detail?id=${a.rangeId}`)).status).toBe(404);
    expect((await req(b.cookie, 'DELETE', `/service/range/del?ids=${a.rangeId}`)).status).toBe(404);
  });
});
