import { Code } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { readLink, signLink } from '../../platform/auth/signedLink.js';
import { AppError } from '../../platform/http/errors.js';

/*
 * A query code is a signed token (platform/auth/signedLink.ts, the /exDetail links' signing with a
 * label of its own): `<code id>.<customer id>.<expiry ms>.<mac>`. Made again from the row, it is
 * the same token each time, so the list can show it; whether it was revoked is the row's.
 */

const LABEL = 'coldwatch query code v1';

export interface CodeLink {
  id: number;
  customerId: number;
  /** Expiry, UTC ms. */
  exp: number;
}

export const signCode = (db: Db, c: CodeLink) => signLink(db, LABEL, [c.id, c.customerId, c.exp]);

/** What a genuine, unexpired code names: 401 with the reason (altered or made elsewhere; expired) otherwise. */
export async function readCode(db: Db, token: string, now = Date.now()): Promise<CodeLink> {
  const nums = await readLink(db, LABEL, token, 3);
  if (!nums) throw new AppError(Code.FAILED, 'errors.queryCode.invalid', 401);
  const [id, customerId, exp] = nums;
  if (exp <= now) throw new AppError(Code.FAILED, 'errors.queryCode.expired', 401);
  return { id, customerId, exp };
}

/** The public page's address on the console's public URL. */
export const codeUrl = (base: string, token: string) => `${base.replace(/\/$/, '')}/queryCode?code=${encodeURIComponent(token)}`;
