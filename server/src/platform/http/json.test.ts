import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@coldwatch/contract';
import { setup, type TestCtx } from '../../../test/helper.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json.js';

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

describe('nestedDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":"${'['.repeat(100)}"}`, 3)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\"${'{'.repeat(10)}"}`, 3)).toBe(false);
  });
});

describe('a JSON body nested beyond the limit', () => {
  let t: TestCtx;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t.close());

  it('answers 400 naming the limit, before a session, on login and registration', async () => {
    for (const url of ['/service/user/login', '/api/home/login', '/service/user/register']) {
      const r = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'accept-language': 'en-US' }, payload: `{"account":${nested(10_000)}}` });
      expect(r.statusCode, url).toBe(400);
      expect(r.json().state).toEqual({ code: Code.PARAM_ERROR, msg: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep` });
    }
  });

  it('answers in the caller\'s language, on a signed-in route too', async () => {
    const cookie = await t.login('alpha');
    const r = await t.app.inject({ method: 'PUT', url: '/service/mine/personal', headers: { cookie, 'content-type': 'application/json' }, payload: `{"name":${nested(MAX_JSON_DEPTH + 1)}}` });
    expect(r.statusCode).toBe(400);
    expect(r.json().state.msg).toBe(`请求内容的嵌套层级超过 ${MAX_JSON_DEPTH} 层`);
  });

  it('lets a body at the limit through to its own checks, and finds a NUL byte at its bottom', async () => {
    const deep = `{"account":${nested(MAX_JSON_DEPTH - 1, '"a\\u0000"')},"password":"x"}`;
    const r = await t.app.inject({ method: 'POST', url: '/service/user/login', headers: { 'content-type': 'application/json', 'accept-language': 'en-US' }, payload: deep });
    expect(r.statusCode).toBe(400);
    expect(Object.keys(r.json().result.errors)).toEqual([`account${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`]);
  });
});
