import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { paramNumber } from '@coldwatch/contract';
import { system } from '../db/kysely.js';
import type { Db } from '../db/client.js';
import { captchaPng, cryptoRandom, pickCode, PICTURE_H, PICTURE_W, type Random } from './captcha/picture.js';

const KEY_SETTING = 'captcha.key';

/** How long a picture code stays valid: the "verification validity (minutes)" parameter (/sys/paramsetup), read at each new code. */
export async function captchaTtlMs(db: Db): Promise<number> {
  const row = await system(db).selectFrom('setting').select('value').where('key', '=', 'verification_validity_minutes').executeTakeFirst();
  return paramNumber('verification_validity_minutes', row?.value) * 60_000;
}

/*
 * A login picture code that costs no database write to show: the cookie carries the
 * challenge, signed with a key that every replica reads from the `setting` table. Anonymous
 * requests for pictures (rate-limited, but many) therefore touch nothing; the one write is at
 * the check, which spends the code so that it is tried once.
 *
 * Cookie: `<nonce>.<expiry ms>.<tag>.<answer mac>`. The tag authenticates nonce and expiry (a
 * made-up cookie is refused without a write); the answer mac binds the answer, which the
 * cookie does not reveal (brute force needs the key).
 */

const keys = new WeakMap<Db, Promise<Buffer>>();

/**
 * The signing key: created once per database, shared by every replica. The console's one
 * server secret: other signatures (the backup links, modules/backup) use keys derived from it.
 */
export function keyOf(db: Db): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = (async () => {
      const q = system(db);
      await q
        .insertInto('setting')
        .values({ key: KEY_SETTING, value: randomBytes(32).toString('base64') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await q.selectFrom('setting').select('value').where('key', '=', KEY_SETTING).executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'base64');
    })();
    k.catch(() => keys.delete(db));
    keys.set(db, k);
  }
  return k;
}

const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const normal = (answer: string) => answer.trim().toLowerCase();

/** The cookie value for a challenge whose answer is `text` (tests use it to know the answer). */
export async function signCaptcha(db: Db, text: string, now = Date.now(), ttlMs?: number): Promise<string> {
  const key = await keyOf(db);
  const head = `${randomBytes(12).toString('base64url')}.${now + (ttlMs ?? (await captchaTtlMs(db)))}`;
  return `${head}.${mac(key, head)}.${mac(key, `${head}|${normal(text)}`)}`;
}

/**
 * A new picture and the cookie value that names it; nothing is stored. The picture is a PNG
 * (captcha/picture.ts says why a raster); `svg` wraps it as a data: URL in an SVG of the same
 * size, so the route and the page that show it keep their image/svg+xml. `random` is for tests.
 */
export async function createCaptcha(db: Db, random: Random = cryptoRandom()): Promise<{ id: string; svg: string; png: Buffer; maxAgeS: number }> {
  const text = pickCode(random);
  const png = captchaPng(text, { random });
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_W}" height="${PICTURE_H}" viewBox="0 0 ${PICTURE_W} ${PICTURE_H}">` +
    `<image width="${PICTURE_W}" height="${PICTURE_H}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  const ttlMs = await captchaTtlMs(db);
  return { id: await signCaptcha(db, text, Date.now(), ttlMs), svg, png, maxAgeS: ttlMs / 1000 };
}

/** One try per code: a genuine, unexpired code is spent whether the answer is right or wrong. */
export async function checkCaptcha(db: Db, id: string | undefined, answer: string | undefined, now = Date.now()): Promise<boolean> {
  if (!id || !answer) return false;
  const parts = id.split('.');
  if (parts.length !== 4) return false;
  const [nonce, exp, tag, answerMac] = parts;
  const expiry = Number(exp);
  if (!Number.isSafeInteger(expiry) || expiry <= now) return false;
  const key = await keyOf(db);
  const head = `${nonce}.${exp}`;
  if (!same(tag, mac(key, head))) return false;
  const spent = await system(db)
    .insertInto('captcha_spent')
    .values({ id: nonce, expires_at: new Date(expiry) })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  if (spent.length === 0) return false;
  return same(answerMac, mac(key, `${head}|${normal(answer)}`));
}

/** The cookie naming the captcha a browser was shown (login and registration check it). */
export const CAPTCHA_COOKIE = 'cw_captcha';
