import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { AREA_CODE, CONTACT_PHONE, CUSTOMER_CODE, CUSTOMER_CODE_FIELDS, EMAIL, PHONE, codeField, fieldErrors, ruleMessage, zodRule } from './formRules';

const t = ((k: string, o?: any) => (o?.max ? `${k}:${o.max}` : k === 'rule.nope' ? (o?.defaultValue ?? k) : k)) as any;

describe('§5 patterns', () => {
  it.each([
    [CUSTOMER_CODE, 'ACME', true],
    [CUSTOMER_CODE, 'ac me', false],
    [CUSTOMER_CODE, 'A'.repeat(21), false],
    [AREA_CODE, 'cn_310', true],
    [AREA_CODE, 'cn-310', false],
    [CONTACT_PHONE, '021-5555-1234', true],
    [CONTACT_PHONE, '+86 21', false],
    [EMAIL, 'ops@acme.cn', true],
    [EMAIL, 'ops@acme', false],
    [PHONE, '13800138000', true],
    [PHONE, '021-55551234', true],
    [PHONE, '12345', false],
  ])('%s %s → %s', (re, v, ok) => expect(re.test(v)).toBe(ok));
});

describe('server errors on fields', () => {
  it('maps result.errors to known fields only', () => {
    const e = new ApiError(400, 'Parameter error', 400, { code: 'Only letters', 'admin.account': 'x', other: 'y' });
    expect(fieldErrors(e, ['code', 'admin'])).toEqual([
      { name: 'code', errors: ['Only letters'] },
      { name: 'admin', errors: ['x'] },
    ]);
    expect(fieldErrors(new Error('x'), ['code'])).toEqual([]);
  });
  it('maps §8 codes to fields', () => {
    expect(codeField(new ApiError(420, 'The code exists', 200), CUSTOMER_CODE_FIELDS)).toEqual([{ name: 'code', errors: ['The code exists'] }]);
    expect(codeField(new ApiError(500000, 'x', 200), CUSTOMER_CODE_FIELDS)).toEqual([]);
  });
});

describe('zod rules', () => {
  const schema = z.string().regex(/^a+$/, { error: 'errors.rule.account' }).max(3, { error: 'errors.rule.maxLength50' });
  it('passes and fails with the catalogue key', async () => {
    const rule = zodRule(schema, t) as any;
    await expect(rule.validator({}, 'aa')).resolves.toBeUndefined();
    await expect(rule.validator({}, 'b')).rejects.toThrow('rule.account');
    await expect(rule.validator({}, 'aaaa')).rejects.toThrow('rule.maxLength:50');
  });
  it('lets an optional blank pass', async () => {
    await expect((zodRule(schema, t, { optional: true }) as any).validator({}, '')).resolves.toBeUndefined();
  });
  it('falls back to the generic format message', () => {
    expect(ruleMessage('errors.rule.nope', t)).toBe('rule.format');
  });
});

