import { useMutation } from '@tanstack/react-query';
import { authRefs, loginQrRefs, type authApi, type loginQrApi, type Result } from '@coldwatch/contract';
import { call } from '../../api/call';

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

/** "mm:ss" of the time left. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
