import { SIGNATURE_MAX_BYTES } from '@coldwatch/contract';
import { api } from '../../api/client';
import { uploadImage, type AvatarProblem } from './avatar';

/** GET /service/share/signature/detail: the user's signature as a data URL, or null when there is none. */
export interface SignatureDetail {
  userId: number;
  signature: string | null;
  mime: string | null;
  size: number;
  updatedAt: number | null;
}

export type SignatureProblem = AvatarProblem;

/** Spec §5 uploads: signature PNG or JPG (JPEG), under 500 KB. Checked in the browser before sending (the server checks again). */
export function checkSignature(file: { name: string; type?: string; size: number }): SignatureProblem | undefined {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const typeOk = ['png', 'jpg', 'jpeg'].includes(ext) && (!file.type || ['image/png', 'image/jpeg', 'image/jpg'].includes(file.type));
  if (!typeOk) return 'type';
  if (file.size >= SIGNATURE_MAX_BYTES) return 'size';
  return undefined;
}

export const SIGNATURE_KEY = ['signature'] as const;

export const getSignature = () => api.get<SignatureDetail>('/service/share/signature/detail');

/** POST /service/share/signature/save (multipart, field `file`): the caller's own signature. */
export const uploadSignature = (file: File) => uploadImage('/service/share/signature/save', file);

/** A file size for people: 12.3 KB. */
export const formatSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
