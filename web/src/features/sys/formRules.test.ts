import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { areaCode, customerCode, customerPhone, email, phone } from '@coldwatch/contract';
import { CUSTOMER_CODE_FIELDS, codeField, fieldErrors, matches, ruleMessage, zodRule } from './formRules';

const t = ((k: string, o?: any) => (o?.max ? `${k}:${o.max}` : k === 'rule.nope' ? (o?.defaultValue ?? k) : k)) as any;

describe('§5 rules from the contract as form validators', () => {
  it.each([
    [customerCode, 'ACME', true],
    [customerCode, 'ac me', false],
    [areaCode, 'cn_310', true],
    [areaCode, 'cn-310', false],
    [customerPhone, '021-5555-1234', true],
    [customerPhone, '+86 21', false],
    [email, 'ops@acme.cn', true],
    [email, 'ops@acme', false],
    [phone, '13800138000', true],
    [phone, '021-55551234', true],
    [phone, '12345', false],
  ])('%#: %s → %s', async (schema, v, ok) => {
    const rule = matches(schema, 'bad') as { validator: (r: unknown, v: unknown) => Promise<void> };
    await (ok ? expect(rule.validator({}, v)).resolves.toBeUndefined() : expect(rule.validator({}, v)).rejects.toThrow('bad'));
  });
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

