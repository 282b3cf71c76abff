import { AVATAR_MAX_BYTES, Code, type Envelope } from '@coldwatch/contract';
import { ApiError } from '../../api/client';

/**
 * The avatar image: the server's url (`userRsp.avatar`, already versioned), or the signed-in
 * user's avatar with a version that defeats the browser cache after an upload.
 */
export const avatarUrl = (version?: string | number | null) =>
  typeof version === 'string' && version.startsWith('/') ? version : `/service/mine/avatar${version ? `?v=${encodeURIComponent(String(version))}` : ''}`;

export type AvatarProblem = 'type' | 'size';

/** Spec §5 uploads: avatar JPG, JPEG or PNG, under 2 MB. Checked in the browser before sending (the server checks again). */
export function checkAvatar(file: { name: string; type?: string; size: number }): AvatarProblem | undefined {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const typeOk = ['jpg', 'jpeg', 'png'].includes(ext) && (!file.type || ['image/jpeg', 'image/png', 'image/jpg'].includes(file.type));
  if (!typeOk) return 'type';
  if (file.size >= AVATAR_MAX_BYTES) return 'size';
  return undefined;
}

/** POST /service/mine/upload (multipart, field `file`). */
export const uploadAvatar = (file: File): Promise<unknown> => uploadImage('/service/mine/upload', file);

/** A multipart upload (field `file`) answered by the envelope; 30 s timeout. */
export async function uploadImage(path: string, file: File): Promise<unknown> {
  const body = new FormData();
  body.append('file', file, file.name);
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 30_000);
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', body, credentials: 'same-origin', signal: ctrl.signal });
  } catch {
    throw new ApiError(0, navigator.onLine ? 'timeout' : 'offline', 0);
  } finally {
    clearTimeout(timer);
  }
  const env = (await res.json().catch(() => undefined)) as Envelope<unknown> | undefined;
  if (!env?.state) throw new ApiError(Code.FAILED, '', res.status);
  if (env.state.code !== Code.OK) throw new ApiError(env.state.code, env.state.msg, res.status);
  return env.result;
}
