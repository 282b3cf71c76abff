/** Body codes of spec §8. The server answers every failure with one of these. */
export const Code = {
  OK: 200000,
  FAILED: 500000,
  ACCOUNT_NOT_FOUND: 500087,
  PASSWORD_ERROR: 500088,
  SESSION_EXPIRED: 500100,
  NO_PERMISSION: 500102,
  LOGIN_FAILED: 500103,
  LOGIN_FAILED_LEGACY: 50098,
  LOGIN_CONFLICT: 500104,
  ALREADY_LOGGED_IN: 500105,
  /** HTTP-level reactions of §8, also used as body codes when the body carries them. */
  PARAM_ERROR: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** Entity answers of §8 (customer create, user, role, menu). */
  NAME_EXISTS: 418,
  CODE_EXISTS: 420,
  EMAIL_EXISTS: 421,
  MOBILE_EXISTS: 422,
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

/** The response envelope of spec §7. */
export interface Envelope<T> {
  state: { code: number; msg: string };
  result: T;
}

/** Paged answer of every `/page` call: `iDisplayStart`/`iDisplayLength` in, `total` and `rows` out. */
export interface Page<T> {
  total: number;
  rows: T[];
  iDisplayStart: number;
  iDisplayLength: number;
  /** The count stopped at `total` and more rows follow (lists that grow without bound). */
  more?: boolean;
}

export const PAGE_SIZES = [15, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 15;
