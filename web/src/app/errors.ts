import { Code } from '@coldwatch/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

/**
 * What the shell does about a failed call (spec §8). Only session-level reactions are
 * global; other failures are shown by the caller (see `errorMessage`).
 */
export type Reaction =
  | { kind: 'none' }
  | { kind: 'toast'; text: string }
  /** Go to the login page with the current path as redirect (after `delayMs`). */
  | { kind: 'login'; text?: string; delayMs: number }
  | { kind: 'home'; text: string };

/** Catalogue keys (namespace common) of the §8 reactions. */
const K = {
  offline: 'common:error.offline',
  timeout: 'common:error.timeout',
  expired: 'common:error.sessionExpired',
  loginExpired: 'common:error.loginExpired',
  noPermission: 'common:error.noPermission',
  conflict: 'common:error.loginConflict',
  again: 'common:error.alreadyLoggedIn',
  server: 'common:error.server',
  unavailable: 'common:error.unavailable',
  failed: 'common:error.failed',
  param: 'common:error.param',
  notFound: 'common:error.notFound',
  method: 'common:error.method',
  missingBody: 'common:error.missingBody',
  accountNotFound: 'common:error.accountNotFound',
  passwordError: 'common:error.passwordError',
  loginFailed: 'common:error.loginFailed',
} as const;

export function reactionFor(e: ApiError, t: TFunction): Reaction {
  if (e.httpStatus === 0 && e.code === 0) return { kind: 'toast', text: t(e.message === 'offline' ? K.offline : K.timeout) };
  if (e.httpStatus === 401 || e.code === Code.SESSION_EXPIRED) return { kind: 'login', text: e.message || t(K.expired), delayMs: 0 };
  if (e.httpStatus === 403) return { kind: 'login', text: t(K.loginExpired), delayMs: 1000 };
  if (e.code === Code.LOGIN_CONFLICT) return { kind: 'login', text: e.message || t(K.conflict), delayMs: 0 };
  if (e.code === Code.ALREADY_LOGGED_IN) return { kind: 'home', text: e.message || t(K.again) };
  if (e.code === Code.NO_PERMISSION) return { kind: 'toast', text: e.message || t(K.noPermission) };
  // 503: a part behind the server (the database) is away for a moment. The session is intact,
  // so the user stays where they are and tries again; §8's "500 then to login" is for real failures.
  if (e.httpStatus === 503) return { kind: 'toast', text: e.message || t(K.unavailable) };
  if (e.httpStatus >= 500) return { kind: 'login', text: e.message || t(K.server), delayMs: 1000 };
  return { kind: 'none' };
}

/** The message of spec §8 for a failure a page shows itself: the server's (localised) message, else the catalogue's. */
export function errorMessage(e: unknown, t: TFunction): string {
  if (!(e instanceof ApiError)) return t(K.failed);
  if (e.httpStatus === 0 && e.code === 0) return t(e.message === 'offline' ? K.offline : K.timeout);
  if (e.message) return e.message;
  switch (e.code) {
    case Code.ACCOUNT_NOT_FOUND:
      return t(K.accountNotFound);
    case Code.PASSWORD_ERROR:
      return t(K.passwordError);
    case Code.LOGIN_FAILED:
    case Code.LOGIN_FAILED_LEGACY:
      return t(K.loginFailed);
    case Code.NO_PERMISSION:
      return t(K.noPermission);
  }
  switch (e.httpStatus) {
    case 400:
      return t(K.param);
    case 404:
      return t(K.notFound);
    case 405:
      return t(K.method);
  }
  if (e.httpStatus === 503) return t(K.unavailable);
  if (e.httpStatus >= 500) return t(K.server);
  return e.code === Code.FAILED ? t(K.failed) : t(K.missingBody);
}

/** Error toasts last one second (spec §8). */
export const ERROR_TOAST_SECONDS = 1;
