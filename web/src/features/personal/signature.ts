import { SIGNATURE_MAX_BYTES } from '@coldwatch/contract';
import { checkImage } from './avatar';

/** The signature's rule (spec §5): PNG or JPG (JPEG), under 500 KB. */
export const checkSignature = (file: { name: string; type?: string; size: number }) => checkImage(file, SIGNATURE_MAX_BYTES);
