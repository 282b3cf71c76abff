import { detailDataRefs } from '@coldwatch/contract';
import type { SubjectKind } from './SubjectPicker';

/**
 * The export's link (GET /service/detailData/export): one carrier only (spec §8 "only one
 * carrier for query or export"), so null for sensors or several carriers, when the button is
 * disabled and says why. A link, not a fetch: the file streams straight to disk, however long.
 */
export function exportHref(kind: SubjectKind, chosen: readonly string[], range: readonly [number, number]): string | null {
  if (kind !== 'carrier' || chosen.length !== 1) return null;
  const q = new URLSearchParams({ carrierIds: chosen[0], start: String(range[0]), end: String(range[1]) });
  return `${detailDataRefs.export.path}?${q}`;
}
