import { describe, expect, it } from 'vitest';
import zhAccount from '../../locales/zh-CN/account.json';
import enAccount from '../../locales/en-US/account.json';
import zhCustomer from '../../locales/zh-CN/customer.json';
import enCustomer from '../../locales/en-US/customer.json';
import zhResource from '../../locales/zh-CN/resource.json';
import enResource from '../../locales/en-US/resource.json';
import { ALL_FUNCS, ROLE_LEVELS, flattenMenu, ORG_TYPES } from '@coldwatch/contract';

const keys = (o: unknown, p = ''): string[] =>
  o && typeof o === 'object' ? Object.entries(o).flatMap(([k, v]) => keys(v, p ? `${p}.${k}` : k)) : [p];

describe('catalogues of the tenancy pages', () => {
  it.each([
    ['account', zhAccount, enAccount],
    ['customer', zhCustomer, enCustomer],
    ['resource', zhResource, enResource],
  ])('%s has the same keys in both languages, none empty', (_n, zh, en) => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const k of keys(zh)) expect(String(k.split('.').reduce((o: any, x) => o[x], zh)).trim()).not.toBe('');
  });
  it('names every menu entry, function object, role level and organisation type', () => {
    for (const e of flattenMenu()) expect(enResource.menu).toHaveProperty([e.code]);
    for (const f of ALL_FUNCS) expect(enAccount.obj).toHaveProperty([f.replace(/^(view|new|edit|remove)/, '')]);
    for (const l of ROLE_LEVELS) expect(enAccount.role.level).toHaveProperty([String(l)]);
    for (const o of ORG_TYPES) expect(enCustomer.orgType).toHaveProperty([o]);
  });
});
