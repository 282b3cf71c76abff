import { describe, expect, it } from 'vitest';
import { authApi, authRefs, type Result } from '@coldwatch/contract';
import type { call } from './call';

// Compile-time: a call through a ref is typed as through the definition (tsc checks this file).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameAnswer: Equal<ReturnType<typeof call<typeof authApi.login>>, Promise<Result<typeof authApi.login>>> = true;
type ByRef = typeof authRefs.login extends { __def?: infer D } ? D : never;
const refCarriesDef: Equal<NonNullable<ByRef>, typeof authApi.login> = true;

// server/test/refs-gen.test.ts checks that refs.gen.ts is not stale.
describe('route refs (refs.gen.ts)', () => {
  it('carry the method, the path and whether a body is sent, and nothing of the schemas', () => {
    expect(authRefs.login).toEqual({ method: authApi.login.method, path: authApi.login.path, body: true });
    expect(authRefs.captcha).toEqual({ method: 'GET', path: authApi.captcha.path });
    expect(sameAnswer && refCarriesDef).toBe(true);
  });
});
