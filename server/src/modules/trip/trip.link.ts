import { Code, TRIP_CODE_TTL_MS } from '@coldwatch/contract';
import type { Db } from '../../platform/db/client.js';
import { readLink, signLink } from '../../platform/auth/signedLink.js';
import { AppError } from '../../platform/http/errors.js';

/*
 * A transport code is a signed token (platform/auth/signedLink.ts with a label of its own, so no
 * query code, /exDetail link or captcha is ever one): `<trip id>.<customer id>.<expiry ms>.<mac>`,
 * valid TRIP_CODE_TTL_MS from its making. It opens /traceDetail without a login.
 */

const LABEL = 'coldwatch transport code v1';

export interface TripLink {
  id: number;
  customerId: number;
  /** Expiry, UTC ms. */
  exp: number;
}

export const signTrip = (db: Db, l: TripLink) => signLink(db, LABEL, [l.id, l.customerId, l.exp]);

export const tripLinkExpiry = (now: number) => now + TRIP_CODE_TTL_MS;

/** What a genuine, unexpired code names; 401 with the reason (altered or made elsewhere; expired) otherwise. */
export async function readTrip(db: Db, token: string, now = Date.now()): Promise<TripLink> {
  const nums = await readLink(db, LABEL, token, 3);
  if (!nums) throw new AppError(Code.FAILED, 'errors.trip.codeInvalid', 401);
  const [id, customerId, exp] = nums;
  if (exp <= now) throw new AppError(Code.FAILED, 'errors.trip.codeExpired', 401);
  return { id, customerId, exp };
}

/** The public page's address on the console's public URL. */
export const traceUrl = (base: string, token: string) => `${base.replace(/\/$/, '')}/traceDetail?code=${encodeURIComponent(token)}`;
