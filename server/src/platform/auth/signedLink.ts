import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import { keyOf } from './captcha.js';

/*
 * Links that open a record without signing in (/exDetail, /queryCode): a token of positive
 * whole numbers (the record, its customer, an expiry in ms, ...) and an HMAC-SHA256 over them.
 * The key is derived from the console's one server secret (the `setting` row of captcha.ts,
 * shared by every replica) with a label per kind of link, so a token of one kind is never valid
 * as another, nor as a captcha or backup-link signature. Token: `<n1>.<n2>.….<mac>`, URL-safe.
 */

/** The key of one kind of link. */
export async function linkKey(db: Db, label: string): Promise<Buffer> {
  return createHmac('sha256', await keyOf(db)).update(label).digest();
}

const mac = (key: Buffer, parts: readonly number[]) => createHmac('sha256', key).update(parts.join('\n')).digest('base64url');

/** The token naming `parts`, signed with the key of `label`. */
export async function signLink(db: Db, label: string, parts: readonly number[]): Promise<string> {
  return `${parts.join('.')}.${mac(await linkKey(db, label), parts)}`;
}

const positive = (s: string) => (/^\d{1,16}$/.test(s) ? Number(s) : NaN);

/**
 * The `count` numbers a genuine token of `label` names, or null when it is not one: a part
 * missing, added or changed, or a mac made with another key. Compared in constant time.
 */
export async function readLink(db: Db, label: string, token: string, count: number): Promise<number[] | null> {
  const parts = token.split('.');
  if (parts.length !== count + 1) return null;
  const nums = parts.slice(0, count).map(positive);
  if (!nums.every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  const want = Buffer.from(mac(await linkKey(db, label), nums));
  const got = Buffer.from(parts[count]);
  return got.length === want.length && timingSafeEqual(got, want) ? nums : null;
}
