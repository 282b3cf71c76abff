import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);

describe('contact rules of spec §5 (each passes and fails)', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['11-digit mobile', { phone: '13912345678' }, null],
    ['7-8 digit number', { phone: '87654321' }, null],
    ['area code and number', { phone: '021-87654321' }, null],
    ['10 digits', { phone: '1391234567' }, 'phone'],
    ['letters in phone', { phone: '139-ABCDEFG' }, 'phone'],
    ['plain e-mail', { email: 'nurse@alpha.example.cn' }, null],
    ['Chinese local part', { email: '护士@alpha.cn' }, null],
    ['e-mail without domain dot', { email: 'nurse@alpha' }, 'email'],
    ['name of 30', { name: 'n'.repeat(30) }, null],
    ['empty name', { name: ' ' }, 'name'],
  ];
  it.each(cases)('%s', async (_l, over, field) => {
    const r = await req(a.cookie, 'POST', '/service/contact/add', { name: 'Nurse', groupName: `g${Math.random()}`, ...over });
    if (field === null) expect(r.state.code).toBe(200000);
    else {
      expect(r.status).toBe(400);
      expect(r.result.errors).toHaveProperty(field);
    }
  });

  it('rejects a phone twice in one group, allows it in another group or customer', async () => {
    const dup = await req(a.cookie, 'POST', '/service/contact/add', { name: 'Twin', phone: '13800000000', groupName: 'night' });
    expect(dup.state).toEqual({ code: 422, msg: 'The phone number already exists in this group' });
    expect((await req(a.cookie, 'POST', '/service/contact/add', { name: 'Twin', phone: '13800000000', groupName: 'day' })).state.code).toBe(200000);
    expect((await req(b.cookie, 'POST', '/service/contact/add', { name: 'Twin', phone: '13800000000', groupName: 'day' })).state.code).toBe(200000);
    const moved = await req(a.cookie, 'PUT', '/service/contact/update', { id: a.contactId, name: 'AlphaNurse', phone: '13800000000', groupName: 'day' });
    expect(moved.state.code).toBe(422);
  });
});

describe('contact reads and writes', () => {
  it('pages, shows, updates and deletes within scope', async () => {
    const page = await call(t, a.cookie, 'GET', '/service/contact/page?groupName=night');
    expect(page.rows.map((r: any) => r.name)).toEqual(['AlphaNurse']);
    expect(page.rows[0]).toMatchObject({ carrierCount: 1, phone: '13800000000' });
    await call(t, a.cookie, 'PUT', '/service/contact/update', { id: a.contactId, name: 'AlphaNurse', phone: '13800000001', groupName: 'night', alarmLevel: 2 });
    expect(await call(t, a.cookie, 'GET', `/service/contact/detail?id=${a.contactId}`)).toMatchObject({ phone: '13800000001', alarmLevel: 2, locale: null });
    // Its notices' language (issue 28): one of the console's, or null for the customer's; nothing else is stored.
    await call(t, a.cookie, 'PUT', '/service/contact/update', { id: a.contactId, name: 'AlphaNurse', phone: '13800000001', groupName: 'night', alarmLevel: 2, locale: 'en-US' });
    expect((await call(t, a.cookie, 'GET', `/service/contact/detail?id=${a.contactId}`)).locale).toBe('en-US');
    expect((await req(a.cookie, 'PUT', '/service/contact/update', { id: a.contactId, name: 'AlphaNurse', locale: 'fr-FR' })).status).toBe(400);
    expect((await call(t, a.cookie, 'GET', `/service/contact/detail?id=${a.contactId}`)).locale).toBe('en-US');
    expect((await req(a.cookie, 'GET', `/service/contact/detail?id=${b.contactId}`)).status).toBe(404);
    expect((await req(a.cookie, 'PUT', '/service/contact/update', { id: b.contactId, name: 'Hijack' })).status).toBe(404);
    expect(await call(t, a.cookie, 'DELETE', `/service/contact/del?ids=${a.contactId}`)).toEqual({ deleted: 1 });
    expect((await call(t, a.cookie, 'GET', `/service/carrier/detail?id=${a.carrierId}`)).contactIds).toEqual([]);
  });
});
