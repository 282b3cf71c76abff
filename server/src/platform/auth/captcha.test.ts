import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestCtx } from '../../../test/helper.js';
import { checkCaptcha, createCaptcha, signCaptcha } from './captcha.js';
import { pickCode, PICTURE_H, PICTURE_W, type Random } from './captcha/picture.js';
import { readPng } from './captcha/png-reader.fixture.js';

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

  it('serves a raster picture: one PNG inside the SVG, no shapes that name the characters', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/service/user/captcha' });
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const m = /^<svg [^>]*><image [^>]*href="data:image\/png;base64,([A-Za-z0-9+/=]+)"\/><\/svg>$/.exec(res.body);
    expect(m).not.toBeNull();
    const png = readPng(Buffer.from(m![1], 'base64'));
    expect([png.width, png.height]).toEqual([PICTURE_W, PICTURE_H]);
    expect(res.cookies.find((c) => c.name === 'cw_captcha')?.value).toMatch(/^[\w-]+\.\d+\.[\w-]+\.[\w-]+$/);
  });

  it('the cookie accepts the code drawn in the picture, typed in lower case, and nothing else', async () => {
    // Two generators with the same sequence: the second replays the first's draws, so it names the code drawn.
    const replayable = (): Random => {
      let i = 0;
      return () => (++i * 0.6180339887) % 1;
    };
    const c = await createCaptcha(t.db, replayable());
    const code = pickCode(replayable());
    expect(readPng(c.png).width).toBe(PICTURE_W);
    expect(c.svg).toContain(c.png.toString('base64'));
    const other = await createCaptcha(t.db, replayable());
    expect(await checkCaptcha(t.db, other.id, (code[0] === 'A' ? 'C' : 'A') + code.slice(1))).toBe(false);
    expect(await checkCaptcha(t.db, c.id, code.toLowerCase())).toBe(true);
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
