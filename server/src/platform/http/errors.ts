import { Code } from '@coldwatch/contract';

/**
 * A failure the user should read: a spec §8 body code, a message key of the errors
 * catalogue (translated to the caller's language at the edge) and the HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly msgKey: string,
    readonly httpStatus = 200,
    readonly details?: Record<string, string>,
    /** Values for the message's {{placeholders}}. */
    readonly vars?: Record<string, string | number>,
  ) {
    super(msgKey);
  }
}

export const paramError = (msgKey = 'errors.paramError', details?: Record<string, string>) =>
  new AppError(Code.PARAM_ERROR, msgKey, 400, details);
export const notFound = () => new AppError(Code.NOT_FOUND, 'errors.notFound', 404);
export const noPermission = () => new AppError(Code.NO_PERMISSION, 'errors.noPermission', 200);
export const sessionExpired = () => new AppError(Code.SESSION_EXPIRED, 'errors.sessionExpired', 401);
/** A uniqueness or state conflict answered with a §8 entity code, e.g. 418 name exists. */
export const conflict = (code: number, msgKey: string) => new AppError(code, msgKey, 200);

/** PostgreSQL unique violation (23505) → the constraint name, so a repository can map it to a §8 code. */
/**
 * A value the database cannot hold in its column (SQLSTATE 22003, numeric_value_out_of_range):
 * an id beyond PostgreSQL's integer that a body schema let through. The caller's input, not a
 * fault of the server.
 */
export const outOfRange = (err: unknown) => (err as { code?: string })?.code === '22003';

export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' ? e.constraint ?? '' : undefined;
}
