import { useMutation } from '@tanstack/react-query';
import { authRefs, loginQrRefs, type authApi, type loginQrApi, type Result } from '@coldwatch/contract';
import { Code } from '@coldwatch/contract';
import { call } from '../../api/call';
import { ApiError } from '../../api/client';

export type LoginQr = Result<typeof loginQrApi.get>;
export type QrStatus = Result<typeof authApi.qrStatus>['status'];

export const getLoginQr = () => call(loginQrRefs.get);
/** A new code; the shown one (if any) ends at once. */
export const refreshLoginQr = (key?: string) => call(loginQrRefs.refresh, { query: { key } });
export const qrStatus = (key: string) => call(authRefs.qrStatus, { query: { key } });

/**
 * The code a browser shows, as a mutation (issuing one ends the previous): `issue()` for a
 * first code, `issue(key)` to replace the shown one; `qr`, `loading` and `error` follow it.
 */
export function useLoginQr() {
  const m = useMutation({ mutationFn: (key?: string) => (key ? refreshLoginQr(key) : getLoginQr()) });
  return { qr: m.data, loading: m.isPending, error: m.error, issue: (key?: string) => m.mutateAsync(key).catch(() => undefined), reset: m.reset };
}

/**
 * A poll the server answered with a refusal of the code itself: it logs only the browser it was
 * issued to in, and this browser no longer holds its secret (a newer code took the binding, or
 * the cookie is gone). Polling it further cannot succeed; a new code can. Offline, timeouts,
 * 429 and server faults are passing, and the next tick asks again.
 */
export const qrGone = (e: unknown) => e instanceof ApiError && e.code === Code.FAILED && e.httpStatus === 200;

/** "mm:ss" of the time left. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
