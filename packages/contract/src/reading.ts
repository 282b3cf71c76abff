/**
 * What a device reading may carry (spec §5, docs/device-protocol.md). The ingest checks every
 * reading against these before it reaches the database, so a value the database could not
 * store (`1e39` in a `real` column) or a device number it would refuse (a NUL byte) is
 * rejected on its own, with its reason, and never fails a shared batch.
 */

import { READING_FIELDS, type ReadingField } from './enums.js';

/** Inclusive ranges, in the protocol's units: °C, %RH, V, dBm, 0–255, ppm, 1 open / 0 closed. */
export const READING_LIMITS = {
  temp: [-327.67, 327.67],
  hum: [0, 100],
  volt: [0, 100],
  rssi: [-200, 50],
  lqi: [0, 255],
  gas: [0, 1_000_000],
  door: [0, 1],
} as const satisfies Record<ReadingField, readonly [number, number]>;

/** The reading kinds (enums.ts), each of which has its limits above. */
export type ReadingValue = ReadingField;
export const READING_VALUES: readonly ReadingValue[] = READING_FIELDS;

/** Temperature and humidity keep two decimals (spec §5); the device's float noise beyond is rounded away. */
export const TWO_DECIMALS: readonly ReadingValue[] = ['temp', 'hum'];

/** A reading may not be older than this (a device clock that was never set) … */
export const EARLIEST_READING_MS = Date.UTC(2000, 0, 1);
/** … nor later than this ahead of the console's clock. */
export const FUTURE_TOLERANCE_MS = 10 * 60_000;

export const DEVICE_NO_MAX = 30;

/** Control characters (NUL included) and lone UTF-16 surrogates: text PostgreSQL or the log cannot hold. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isPrintable = (s: string) => !UNPRINTABLE.test(s);

export const validDeviceNo = (s: string) => s.length > 0 && s.length <= DEVICE_NO_MAX && isPrintable(s);

/** The smallest magnitude a `real` (float4) keeps as a normal number. */
const TINIEST = 1.18e-38;

/** The first value of a reading outside its range, as `temp=1e+39`, or null. */
export function outOfRange(r: Partial<Record<ReadingValue, number | null>>): string | null {
  for (const k of READING_VALUES) {
    const v = r[k];
    if (v === null || v === undefined) continue;
    const [min, max] = READING_LIMITS[k];
    if (v < min || v > max) return `${k}=${v}`;
    // Nonzero but below what the database's `real` column can hold (1e-50): garbage from a broken
    // or hostile device, not a reading; rounding it to 0 would file a temperature nobody measured.
    if (v !== 0 && Math.abs(v) < TINIEST) return `${k}=${v}`;
  }
  return null;
}
