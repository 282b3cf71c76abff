import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Code, type Signature } from '@coldwatch/contract';
import type { Db, Queryable } from '../../platform/db/client.js';
import { mutate, refusedLogged, type AuditEntry } from '../../platform/audit/audit.js';
import { scoped } from '../../platform/db/scoped.js';
import type { Scope } from '../../platform/auth/scope.js';
import { verifyPassword } from '../../platform/auth/password.js';
import { clearFailures, clientAddress, countFailure, failureState, lockedOut } from '../../platform/auth/login.js';
import { AppError, paramError } from '../../platform/http/errors.js';
import { findById, getFile } from '../user/user.repository.js';

/*
 * Electronic signatures of handling steps (21 CFR Part 11 §11.200(a)(1): two distinct
 * components, here account and password, entered again for each signing; §11.50: the
 * signer's printed name, date and time, and the meaning, kept with the record).
 *
 * A signature is the session's own user: the account entered must be the signed-in one, and
 * the password its password. A wrong one counts toward the login lockout of that account from
 * this address (platform/auth/login.ts: five in a row lock the address out of the account, for
 * logins and signatures alike), and a locked address is refused whatever it enters. A refused
 * signature records nothing: it is checked before the step's transaction begins.
 */

export interface Signer {
  userId: number;
  account: string;
  /** The full name at signing; the account when the user has no name. */
  name: string;
  /** The user's live signature image (app_user.signature), copied at signing. */
  hasImage: boolean;
}

export const signRequired = () => paramError('errors.exception.signRequired', { sign: 'errors.exception.signRequired' });
const signWrong = () => new AppError(Code.PASSWORD_ERROR, 'errors.exception.signWrong', 200, { password: 'errors.exception.signWrong' });

/** The signer, when account and password are the session user's; otherwise counted and refused. */
export async function verifySigner(db: Db, req: FastifyRequest, sign: Signature | undefined): Promise<Signer> {
  if (!sign) throw signRequired();
  const user = await findById(db, req.scope.userId);
  if (!user) throw signWrong();
  const address = clientAddress(req.ip);
  const state = await failureState(db, user.id, address);
  if (state.lockedFor > 0) throw lockedOut(state.lockedFor);
  // The password is checked even for another account's name, so the answer takes as long either way.
  const passwordOk = await verifyPassword(user.password_hash, sign.password);
  if (!passwordOk || sign.account !== user.account) {
    await countFailure(db, user, address);
    throw signWrong();
  }
  await clearFailures(db, user.id, address);
  return { userId: user.id, account: user.account, name: user.name || user.account, hasImage: !!user.signature };
}

/**
 * The signer's image as a copy of the exception's customer, made once per content: the step
 * points at the copy, which nothing changes or deletes (migration 0035), not at the user's
 * live image, which the next upload replaces. Null when the user has no image.
 */
export async function copySignature(q: Queryable, scope: Scope, signer: Signer, customerId: number): Promise<number | null> {
  if (!signer.hasImage) return null;
  const file = await getFile(q, signer.userId, 'signature');
  if (!file) return null;
  const k = scoped(q, scope);
  const sha256 = createHash('sha256').update(file.data).digest();
  const made = await k
    .insertInto('signature_copy')
    .values({ customer_id: customerId, sha256, mime: file.mime, size: file.size, data: file.data })
    .onConflict((oc) => oc.columns(['customer_id', 'sha256']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) return made.id;
  const kept = await k.selectFrom('signature_copy').select('id').where('customer_id', '=', customerId).where('sha256', '=', sha256).executeTakeFirstOrThrow();
  return kept.id;
}

/** The signed copies named by `ids` as data: URLs, keyed by id (each image once). */
export async function signatureImages(q: Queryable, scope: Pick<Scope, 'customerIds'>, ids: (number | null)[]): Promise<Record<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
  if (!wanted.length) return {};
  const rows = await scoped(q, scope).selectFrom('signature_copy').select(['id', 'mime', 'data']).where('id', 'in', wanted).execute();
  return Object.fromEntries(rows.map((r) => [String(r.id), `data:${r.mime};base64,${Buffer.from(r.data).toString('base64')}`]));
}

/**
 * A signed step, as every signed record of the console is written (exception handling, collect
 * records): `check` judges ids and states without a password, then the signature (a wrong one is
 * counted toward the lockout and refused before anything is written); both refusals leave their
 * result-0 log row. Then the step and its log row, naming the signer, in one transaction.
 */
export async function signedStep<T>(
  db: Db,
  req: FastifyRequest,
  entry: AuditEntry,
  sign: Signature | undefined,
  check: () => Promise<void>,
  write: (q: Queryable, signer: Signer) => Promise<T>,
): Promise<T> {
  const signer = await refusedLogged(db, req, entry, async () => {
    await check();
    return verifySigner(db, req, sign);
  });
  return mutate(db, req, { ...entry, params: { ...(entry.params as object), signer: signer.account } }, (q) => write(q, signer));
}
