import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { system } from '../db/kysely.js';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../db/client.js';

const TTL_MS = 5 * 60_000;

/** A login verification code, kept in the database so that any replica can check it. */
export async function createCaptcha(db: Db): Promise<{ id: string; svg: string }> {
  const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f4f7fb' });
  const id = randomBytes(16).toString('hex');
  const k = system(db);
  await k.deleteFrom('captcha').where('expires_at', '<', sql<Date>`now()`).execute();
  await k.insertInto('captcha').values({ id, answer: c.text.toLowerCase(), expires_at: new Date(Date.now() + TTL_MS) }).execute();
  return { id, svg: c.data };
}

/** One try per code: a checked code is spent whether right or wrong. */
export async function checkCaptcha(db: Db, id: string | undefined, answer: string | undefined): Promise<boolean> {
  if (!id || !answer) return false;
  const rows = await system(db).deleteFrom('captcha').where('id', '=', id).where('expires_at', '>', sql<Date>`now()`).returning('answer').execute();
  return rows.length === 1 && rows[0].answer === answer.trim().toLowerCase();
}

/** The cookie naming the captcha a browser was shown (login and registration check it). */
export const CAPTCHA_COOKIE = 'cw_captcha';
