import { z } from 'zod';
import * as r from './rules.js';

/**
 * Users and the personal pages (spec §3 User, §5 user rules and field formats, §8 User
 * answers). The server validates with these bodies; the web reuses them for its forms.
 */

/**
 * The §8 User answers, as body codes (state.code) of `/service/user/*` and `/service/mine/personal`.
 * 201 (saved, contact sync failed) and 501 (saved, account cancelled so no sync) concern the
 * contact sync, which Coldwatch does not have: the server never produces them.
 */
export const USER_CODE = {
  ok: 200,
  contactSyncFailed: 201,
  notFound: 404,
  badEmail: 412,
  statusEmpty: 414,
  accountExists: 416,
  nameExists: 417,
  mobileExists: 418,
  emailExists: 419,
  cancelledNoSync: 501,
} as const;

/** Password reset answers 200 = reset success (spec §8 "Password reset 200"). */
export const PASSWORD_RESET_OK = 200;

/** User status of spec §4: active or cancelled. */
export const USER_STATUS = { cancelled: 0, active: 1 } as const;

/** Account: letters, digits, underscore, dot, at sign and hyphen, 2..50 (the login name). */
export const userAccount = z
  .string({ error: 'errors.rule.required' })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .regex(/^[A-Za-z0-9_.@-]{2,50}$/, { error: 'errors.rule.account' });

/** Password of spec §5 "letters and digits, 6-20". */
export const userPassword = z.string({ error: 'errors.rule.required' }).regex(/^[A-Za-z0-9]{6,20}$/, { error: 'errors.rule.password' });

/** Mobile: required, phone format of spec §5. */
export const userMobile = z
  .string({ error: 'errors.rule.required' })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .pipe(r.phone);

/** E-mail: optional (empty allowed), valid when given. A failure answers 412 on the server. */
export const userEmail = z
  .string()
  .trim()
  .refine((s) => s === '' || r.email.safeParse(s).success, { error: 'errors.rule.email' })
  .default('');

export const userGender = z.union([z.literal(0), z.literal(1)], { error: 'errors.rule.gender' }).default(1);

/** Status: required (414 when missing), 1 active or 0 cancelled. */
export const userStatus = z.union([z.literal(0), z.literal(1)], { error: 'errors.rule.status' });

const userFields = {
  account: userAccount,
  name: r.name(50),
  gender: userGender,
  status: userStatus,
  roleIds: z.array(z.number().int().positive(), { error: 'errors.rule.roleRequired' }).min(1, { error: 'errors.rule.roleRequired' }),
  mobile: userMobile,
  email: userEmail,
  remarks: r.text(250).default(''),
  /** Associated architecture: scene ids of the user's customer; empty = the whole customer. */
  sceneIds: z.array(z.number().int().positive()).default([]),
  /** A proxy user's current governed customer (one of its proxy roles' customers). */
  proxyCustomerId: z.number().int().positive().nullable().default(null),
  /** For platform users acting for a customer: the customer the new user belongs to. */
  customerId: z.number().int().positive().nullable().optional(),
};

/**
 * New user: without a password the server makes a temporary one and answers it once.
 * The user type follows the roles' level (spec §6) and is not sent.
 */
export const userAddBody = z.object({ ...userFields, password: userPassword.optional() });
export type UserAddBody = z.infer<typeof userAddBody>;

/** Edit: the same fields with the id; the account may change (still unique), the customer may not. */
export const userUpdateBody = z.object({ id: z.number().int().positive(), ...userFields, customerId: z.number().int().positive().nullable().optional() });
export type UserUpdateBody = z.infer<typeof userUpdateBody>;

/** `/service/mine/personal`: the caller's own profile. */
export const personalBody = z.object({
  name: r.name(50),
  gender: userGender,
  mobile: userMobile,
  email: userEmail,
});
export type PersonalBody = z.infer<typeof personalBody>;

/** `/service/mine/password`: old password, new password (letters and digits 6-20), entered twice. */
export const passwordChangeBody = z
  .object({
    oldPassword: z.string({ error: 'errors.rule.required' }).min(1, { error: 'errors.rule.required' }),
    newPassword: userPassword,
    confirmPassword: z.string({ error: 'errors.rule.required' }),
  })
  .refine((b) => b.newPassword === b.confirmPassword, { error: 'errors.user.passwordsInconsistent', path: ['confirmPassword'] });
export type PasswordChangeBody = z.infer<typeof passwordChangeBody>;


/** The image kind from the first bytes (PNG signature, JPEG SOI marker); undefined for anything else. */
export function imageKind(bytes: Uint8Array): 'png' | 'jpeg' | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/** User type (scope type, spec §6) ordered by reach: a proxy (-1) reaches what a customer administrator reaches. */
export const userTypeRank = (t: number) => (t === -1 ? 1 : t);
