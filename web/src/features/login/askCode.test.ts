import { describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { ApiError } from '../../api/client';
import { asksForCode } from './askCode';

describe('login form: the picture code on demand', () => {
  it('a login answer naming the code field asks for it; other failures do not', () => {
    expect(asksForCode(new ApiError(Code.LOGIN_FAILED, 'enter the verification code', 200, { code: 'enter the verification code' }))).toBe(true);
    expect(asksForCode(new ApiError(Code.PASSWORD_ERROR, 'Password error', 200))).toBe(false);
    expect(asksForCode(new ApiError(Code.PARAM_ERROR, 'Parameter error', 400, { account: 'Please enter the username' }))).toBe(false);
    expect(asksForCode(new Error('offline'))).toBe(false);
  });
});
