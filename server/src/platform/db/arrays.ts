/**
 * Array parameters as PostgreSQL's array text, written here rather than by node-postgres. Its own
 * writer (pg/lib/utils.js arrayString) quotes every element through two regular-expression
 * replaces and a chain of concatenations: for the ingest's statements, which bind their batch as
 * a dozen arrays of 5,000 values (`unnest($1::int[], …)`), that was the largest single source of
 * garbage in the console under 100,000 sensors (docs/performance.md "Memory"). Here a number is
 * written as it is and a string is quoted and escaped only where it needs it, so an element costs
 * its text and nothing more. The text is the same array to PostgreSQL: the statement's cast
 * (`$1::int[]`, `$2::timestamptz[]`) reads it as node-postgres' text would be read.
 *
 * Only flat arrays of numbers, strings, booleans, bigints and nulls are written here; any other
 * array (nested, of dates, of buffers, of objects) is left to node-postgres as before.
 */

/** The array literal of `values`, or undefined when one element is of a kind left to node-postgres. */
export function arrayText(values: readonly unknown[]): string | undefined {
  const parts: string[] = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') parts[i] = String(v);
    // Always quoted: an unquoted element is trimmed, and NULL, empty text, commas and braces mean something else.
    else if (typeof v === 'string') parts[i] = NEEDS_ESCAPE.test(v) ? `"${v.replace(NEEDS_ESCAPE_ALL, '\\$&')}"` : `"${v}"`;
    else return undefined;
  }
  return `{${parts.join(',')}}`;
}

const NEEDS_ESCAPE = /["\\]/;
const NEEDS_ESCAPE_ALL = /["\\]/g;

/** A statement's parameters with their flat arrays written as array text (the others as they are); the same list when it has none. */
export function arrayParams(params: unknown[] | undefined): unknown[] | undefined {
  if (!params?.some(Array.isArray)) return params;
  return params.map((p) => (Array.isArray(p) ? (arrayText(p) ?? p) : p));
}
