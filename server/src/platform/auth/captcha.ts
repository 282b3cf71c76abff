import { randomBytes } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../db/client.js';

const TTL_MS = 5 * 60_000;

/** A login verification code, kept in the database so that any replica can check it. */
export async function createCaptcha(db: Db): Promise<{ id: string; svg: string }> {
  const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f4f7fb' });
  const id = randomBytes(16).toString('hex');
  await db.query('DELETE FROM captcha WHERE expires_at < now()');
  await db.query('INSERT INTO captcha(id, answer, expires_at) VALUES ($1, $2, $3)', [id, c.text.toLowerCase(), new Date(Date.now() + TTL_MS)]);
  return { id, svg: c.data };
}

/** One try per code: a checked code is spent whether right or wrong. */
export async function checkCaptcha(db: Db, id: string | undefined, answer: string | undefined): Promise<boolean> {
  if (!id || !answer) return false;
  const rows = await db.query<{ answer: string }>('DELETE FROM captcha WHERE id = $1 AND expires_at > now() RETURNING answer', [id]);
  return rows.length === 1 && rows[0].answer === answer.trim().toLowerCase();
}
