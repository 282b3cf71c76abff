import { Code, EX_LINK_TTL_MS } from '@coldwatch/contract';
import type { Db } from '../platform/db/client.js';
import { readLink, signLink } from '../platform/auth/signedLink.js';
import { AppError } from '../platform/http/errors.js';

/*
 * The links of /exDetail (spec §2, "no auth needed"): one exception, opened without signing in
 * from the alarm e-mail (the notifier adds it) or a link a user copied (modules/exception). The token names the exception and its
 * customer and an expiry, with an HMAC-SHA256 over the three; the key is derived from the
 * console's one server secret (the `setting` row of platform/auth/captcha.ts, shared by every
 * replica) with a label of its own, so no captcha or backup-link signature is ever a valid
 * token (the signing is platform/auth/signedLink.ts, shared with the query codes). Nothing is stored: a token cannot be revoked before it expires (7 days), but it shows
 * one exception and nothing else, and reading it changes nothing.
 *
 * Token: `<exception id>.<customer id>.<expiry ms>.<mac>`: URL-safe as it is.
 */

const LABEL = 'coldwatch exception link v1';

export interface ExceptionLink {
  exceptionId: number;
  customerId: number;
  /** Expiry, UTC ms. */
  exp: number;
}

export async function signExceptionLink(db: Db, exceptionId: number, customerId: number, now = Date.now()): Promise<{ token: string; exp: number }> {
  const exp = now + EX_LINK_TTL_MS;
  return { token: await signLink(db, LABEL, [exceptionId, customerId, exp]), exp };
}

/** 401 with a message saying which: the spec's "to login" does not apply, the page shows it (web/src/features/abnormal/ExDetailPage.tsx). */
export const linkInvalid = () => new AppError(Code.FAILED, 'errors.exLink.invalid', 401);
export const linkExpired = () => new AppError(Code.FAILED, 'errors.exLink.expired', 401);

/** What a genuine token names; an altered one (any part) is invalid, a genuine one past its expiry expired. */
export async function readExceptionLink(db: Db, token: string, now = Date.now()): Promise<ExceptionLink> {
  const nums = await readLink(db, LABEL, token, 3);
  if (!nums) throw linkInvalid();
  const [exceptionId, customerId, exp] = nums;
  if (exp <= now) throw linkExpired();
  return { exceptionId, customerId, exp };
}

/** The page's address on the console's public URL. */
export const exceptionLinkUrl = (base: string, token: string) => `${base.replace(/\/$/, '')}/exDetail?token=${encodeURIComponent(token)}`;
