import { AVATAR_MAX_BYTES, IMAGE_EXTENSIONS } from '@coldwatch/contract';

/**
 * The avatar image: the server's url (`userRsp.avatar`, already versioned), or the signed-in
 * user's avatar with a version that defeats the browser cache after an upload.
 */
export const avatarUrl = (version?: string | number | null) =>
  typeof version === 'string' && version.startsWith('/') ? version : `/service/mine/avatar${version ? `?v=${encodeURIComponent(String(version))}` : ''}`;

export type ImageProblem = 'type' | 'size';

/** Spec §5 uploads: JPG, JPEG or PNG under maxBytes, checked in the browser before sending (the server checks again). */
export function checkImage(file: { name: string; type?: string; size: number }, maxBytes: number): ImageProblem | undefined {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const typeOk = (IMAGE_EXTENSIONS as readonly string[]).includes(ext) && (!file.type || ['image/jpeg', 'image/png', 'image/jpg'].includes(file.type));
  if (!typeOk) return 'type';
  if (file.size >= maxBytes) return 'size';
  return undefined;
}

/** The avatar's rule: under 2 MB. */
export const checkAvatar = (file: { name: string; type?: string; size: number }) => checkImage(file, AVATAR_MAX_BYTES);
