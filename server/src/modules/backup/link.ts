import { createHmac, timingSafeEqual } from 'node:crypto';
import { BACKUP_LINK_TTL_MS, Code, type BackupLink } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { keyOf } from '../../platform/auth/captcha.js';
import { AppError } from '../../platform/http/errors.js';

/*
 * The signed links of /dataBackup (spec §2, no sign-in): `name`, expiry and the user who made
 * the link, with an HMAC-SHA256 over the three. The key is derived from the console's one
 * server secret (the `setting` row of platform/auth/captcha.ts, shared by every replica), with
 * its own label, so that no captcha signature is ever a valid link. Nothing is stored: a link
 * cannot be revoked before it expires (24 h), but it names one backup, and every download
 * through it is in the system log with the user who made it.
 */

const LABEL = 'coldwatch backup link v1';

async function linkKey(db: Db): Promise<Buffer> {
  return createHmac('sha256', await keyOf(db)).update(LABEL).digest();
}

const signed = (key: Buffer, l: Omit<BackupLink, 'sig'>) => createHmac('sha256', key).update(`${l.name}\n${l.exp}\n${l.by}`).digest('base64url');

export async function signLink(db: Db, name: string, by: number, now = Date.now()): Promise<BackupLink> {
  const link = { name, exp: now + BACKUP_LINK_TTL_MS, by };
  return { ...link, sig: signed(await linkKey(db), link) };
}

export const linkExpired = () => new AppError(Code.FAILED, 'errors.backup.linkExpired', 410);
export const linkInvalid = () => new AppError(Code.FAILED, 'errors.backup.linkInvalid', 400);

/** Refuses a link that is expired or not signed by this console (a changed name, expiry or user). */
export async function checkLink(db: Db, link: BackupLink, now = Date.now()): Promise<void> {
  const want = Buffer.from(signed(await linkKey(db), link));
  const got = Buffer.from(link.sig);
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw linkInvalid();
  if (link.exp <= now) throw linkExpired();
}
