import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { checkCaptcha, createCaptcha, signCaptcha } from './captcha.js';

let t: TestCtx;
beforeAll(async () => {
  t = await setup({ LOGIN_CAPTCHA: 'on' });
});
afterAll(() => t.close());

const spentRows = async () => Number((await t.db.one<{ n: string }>('SELECT count(*) AS n FROM captcha_spent'))!.n);
const settingRows = async () => Number((await t.db.one<{ n: string }>('SELECT count(*) AS n FROM setting'))!.n);

describe('login captcha', () => {
  it('shows pictures without writing to the database', async () => {
    await createCaptcha(t.db); // the first one may create the signing key
    const [spent, settings] = [await spentRows(), await settingRows()];
    for (let i = 0; i < 20; i++) {
      const img = await t.app.inject({ method: 'GET', url: '/service/user/captcha' });
      expect(img.statusCode).toBe(200);
    }
    expect([await spentRows(), await settingRows()]).toEqual([spent, settings]);
  });

  it('accepts the right answer once, in any case; a replay is refused', async () => {
    const id = await signCaptcha(t.db, 'aBcD');
    expect(await checkCaptcha(t.db, id, ' ABCD ')).toBe(true);
    expect(await checkCaptcha(t.db, id, 'abcd')).toBe(false);
  });

  it('spends a code on a wrong answer: the right one afterwards is refused', async () => {
    const id = await signCaptcha(t.db, 'wxyz');
    expect(await checkCaptcha(t.db, id, 'wxya')).toBe(false);
    expect(await checkCaptcha(t.db, id, 'wxyz')).toBe(false);
  });

  it('refuses an expired code', async () => {
    const id = await signCaptcha(t.db, 'abcd', Date.now() - 10 * 60_000);
    expect(await checkCaptcha(t.db, id, 'abcd')).toBe(false);
  });

  it('refuses made-up or altered cookies without writing anything', async () => {
    const id = await signCaptcha(t.db, 'abcd');
    const [nonce, exp, tag, mac] = id.split('.');
    const before = await spentRows();
    for (const forged of [`${nonce}.${Number(exp) + 60_000}.${tag}.${mac}`, `x${nonce}.${exp}.${tag}.${mac}`, `${nonce}.${exp}.${tag}`, 'garbage', `${nonce}.${exp}.${mac}.${tag}`]) {
      expect(await checkCaptcha(t.db, forged, 'abcd')).toBe(false);
    }
    expect(await spentRows()).toBe(before);
    expect(await checkCaptcha(t.db, id, 'abcd')).toBe(true);
  });
});
