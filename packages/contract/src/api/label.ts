import { z } from 'zod';
import { route } from './route.js';

/**
 * Device labels (spec §3 "labels per page"; docs/devices.md "Labels"): a sheet of stickers for
 * sensors, each with its number as a QR code and as text and its carrier, so that whoever stands
 * at a fridge can tell and scan its sensor. The sheet is A4 with as many labels a page as the
 * `labels_per_page` parameter of /sys/paramsetup says.
 */

/** At most this many labels in one print. */
export const LABELS_MAX = 500;

export const labelBody = z.object({
  ids: z
    .array(z.number().int().positive(), { error: 'errors.label.none' })
    .min(1, { error: 'errors.label.none' })
    .max(LABELS_MAX, { error: 'errors.label.tooMany' }),
});

export const labelApi = {
  sensors: route({
    method: 'POST',
    path: '/service/label/sensor',
    tag: 'label',
    summary: 'Labels of sensors as an A4 PDF, labels_per_page to a page',
    body: labelBody,
    result: z.unknown(),
    raw: 'file',
  }),
};
