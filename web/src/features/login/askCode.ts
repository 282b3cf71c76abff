import { ApiError } from '../../api/client';

/**
 * Whether a failed login asks for the picture code field: an account that had many wrong
 * passwords wants the code even where logins otherwise do not (LOGIN_CAPTCHA off), and its
 * answer names the field in its details.
 */
export const asksForCode = (e: unknown) => e instanceof ApiError && !!e.details?.code;
