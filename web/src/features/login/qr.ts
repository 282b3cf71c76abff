import { api } from '../../api/client';

/** Spec §4/§2: a login QR code is valid five minutes. */
export const QR_VALID_MS = 5 * 60_000;

export interface LoginQr {
  key: string;
  /** PNG data URL. */
  qrcode: string;
  /** UTC ms. */
  expiresAt: number;
}

export type QrStatus = 'waiting' | 'expired' | 'confirmed';

/** The server's answer, with a missing expiry filled in (five minutes from now). */
export function normalizeQr(raw: Partial<LoginQr> & { expireAt?: number; expires_at?: number }, now = Date.now()): LoginQr {
  const exp = Number(raw.expiresAt ?? raw.expireAt ?? raw.expires_at);
  return { key: String(raw.key ?? ''), qrcode: String(raw.qrcode ?? ''), expiresAt: Number.isFinite(exp) && exp > 0 ? exp : now + QR_VALID_MS };
}

export const getLoginQr = async () => normalizeQr(await api.get<LoginQr>('/service/mine/loginQrcode/get'));
export const refreshLoginQr = async (key?: string) =>
  normalizeQr(key ? await api.get<LoginQr>('/service/mine/loginQrcode/refresh', { key }) : await api.get<LoginQr>('/service/mine/loginQrcode/get'));

/** GET /service/mine/loginQrcode/status: a plain status or `{status, user?}`. */
export async function qrStatus(key: string): Promise<{ status: QrStatus; user?: { locale?: string | null } }> {
  const r = await api.get<QrStatus | { status: QrStatus; user?: { locale?: string | null } }>('/service/mine/loginQrcode/status', { key });
  return typeof r === 'string' ? { status: r } : r;
}

/** "mm:ss" of the time left. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
