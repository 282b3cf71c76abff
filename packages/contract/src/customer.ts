import { z } from 'zod';
import * as r from './rules.js';
import { userAccount } from './user.js';

/*
 * Customers (spec §3 Customer, §5 customer rules, §8 customer-create answers), the proxy
 * switch and the registration of a new company. The server validates with these bodies and
 * the web reuses them, so a rule is written once.
 */

/** Organisation types of spec §1. */
export const ORG_TYPES = ['00', '01', '02', '03', '04', '05', '09'] as const;
export type OrgType = (typeof ORG_TYPES)[number];

/** Customer type of spec §3: the platform's own organisations or customers. */
export const CUSTOMER_TYPES = ['platform', 'customer'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** Customer status of spec §4. */
export const CUSTOMER_STATUS = { cancelled: 0, active: 1 } as const;

/**
 * The customer-create answers of spec §8, as `result.code` of a success and `state.code` of a
 * failure. 201, 202 and 203 describe partial successes of a create done in separate steps; here
 * the customer, its default roles and its administrator are made in one transaction, so a create
 * either succeeds whole (200) or changes nothing, and those three are never produced
 * (docs/tenancy.md). 416 "account exists" is the user catalogue's answer, used for the
 * administrator account named in the create body.
 */
export const CustomerCode = {
  ADDED: 200,
  ROLE_FAILED: 201,
  USER_FAILED: 202,
  SYNC_FAILED: 203,
  BAD_CODE: 406,
  TYPE_EMPTY: 410,
  ACCOUNT_EXISTS: 416,
  NAME_EXISTS: 418,
  CODE_EXISTS: 420,
  EMAIL_EXISTS: 421,
  MOBILE_EXISTS: 422,
} as const;


/** Message keys whose failure answers a §8 code instead of the generic 400. */
export const CUSTOMER_RULE_CODES: Record<string, number> = {
  'errors.customer.typeEmpty': CustomerCode.TYPE_EMPTY,
  'errors.customer.codeInvalid': CustomerCode.BAD_CODE,
};

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Customer code (spec §5): one reading says letters only, another letters and digits, at most
 * 20. We take letters and digits (the general "code" format of §5 is letters and digits too);
 * a bad code answers 406.
 */
export const customerCode = z
  .string({ error: (iss) => (isEmpty(iss.input) ? 'errors.rule.required' : 'errors.customer.codeInvalid') })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .regex(/^[A-Za-z0-9]{1,20}$/, { error: 'errors.customer.codeInvalid' });

/** Area code: letters, digits, underscore, at most 20 (optional). */
export const areaCode = z.string().trim().regex(/^[A-Za-z0-9_]{0,20}$/, { error: 'errors.customer.areaCode' });

/** Contact phone: digits and hyphens, at most 20. */
export const customerPhone = z.string().trim().regex(/^[0-9-]{0,20}$/, { error: 'errors.customer.phone' });

const typeEmpty = (bad: string) => ({ error: (iss: { input?: unknown }) => (isEmpty(iss.input) ? 'errors.customer.typeEmpty' : bad) });
export const customerType = z.enum(CUSTOMER_TYPES, typeEmpty('errors.customer.type'));
export const orgType = z.enum(ORG_TYPES, typeEmpty('errors.customer.orgType'));

/** Registration password (spec §5): letters, digits, underscore, 6-30. */
export const registerPassword = z.string({ error: 'errors.rule.required' }).regex(/^\w{6,30}$/, { error: 'errors.customer.password' });

/** The editable fields of spec §3, with the §5 lengths. */
const customerFields = {
  name: r.name(50),
  shortName: r.text(30).default(''),
  code: customerCode,
  orgType,
  area: r.text(120).default(''),
  areaCode: areaCode.default(''),
  address: r.text(255).default(''),
  contact: r.text(30).default(''),
  phone: customerPhone.default(''),
  email: r.email.or(z.literal('')).default(''),
  notifyEmail: z.boolean().default(true),
  notifySms: z.boolean().default(false),
  description: r.text(250).default(''),
};

/**
 * Add: the customer, and the account and password of its administrator. The administrator's
 * mobile and e-mail are the customer's phone and e-mail, which is why those are unique across
 * customers and users alike (421/422).
 */
export const customerAddBody = z.object({
  ...customerFields,
  type: customerType,
  account: userAccount,
  password: registerPassword,
});
export type CustomerAddBody = z.infer<typeof customerAddBody>;

/** Update: the same fields with the id; the type (platform or customer) is fixed at creation and not part of an update. */
export const customerUpdateBody = z.object({
  ...customerFields,
  id: z.number({ error: 'errors.rule.required' }).int().positive({ error: 'errors.rule.required' }),
});
export type CustomerUpdateBody = z.infer<typeof customerUpdateBody>;

/** Registration of a new company (`POST /service/user/register`, public). */
export const registerBody = z
  .object({
    name: r.name(50),
    code: customerCode,
    orgType,
    contact: r.name(30),
    phone: customerPhone.min(1, { error: 'errors.rule.required' }),
    email: r.email,
    account: userAccount,
    password: registerPassword,
    confirmPassword: z.string({ error: 'errors.rule.required' }),
    /** The verification code, required when login verification (LOGIN_CAPTCHA) is on. */
    captcha: z.string().trim().max(10).optional(),
  })
  .refine((b) => b.password === b.confirmPassword, { error: 'errors.customer.passwordMismatch', path: ['confirmPassword'] });
export type RegisterBody = z.infer<typeof registerBody>;

/** A customer as the list and detail answer it. */
export const customerRow = z.object({
  id: z.number().int(),
  name: z.string(),
  shortName: z.string(),
  code: z.string(),
  status: z.number().int(),
  type: z.enum(CUSTOMER_TYPES),
  orgType: z.enum(ORG_TYPES),
  area: z.string(),
  areaCode: z.string(),
  address: z.string(),
  contact: z.string(),
  phone: z.string(),
  email: z.string(),
  notifyEmail: z.boolean(),
  notifySms: z.boolean(),
  description: z.string(),
  /** The default administrator's account. */
  adminAccount: z.string().nullable(),
  userCount: z.number().int(),
  createdAt: z.number().int(),
});
export type CustomerRow = z.infer<typeof customerRow>;

/** One entry of the proxy switch dialog. */
export const proxyCustomer = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  /** The proxy's own customer (switching to it returns to the proxy's own view). */
  own: z.boolean(),
  /** The customer the proxy currently works in. */
  current: z.boolean(),
});
export type ProxyCustomer = z.infer<typeof proxyCustomer>;
