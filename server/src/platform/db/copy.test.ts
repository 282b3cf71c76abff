import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb } from '../../../test/db.js';
import type { Db } from './client.js';
import { copyText } from './copy.js';

/** COPY's text rows (copyText) reach the table as they were: the notice texts hold newlines, tabs and backslashes. */
describe('copyText', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await emptyDb());
    await db.exec('CREATE TABLE copy_probe (n int, t text)');
  });
  afterAll(() => drop());

  it('escapes what COPY would read as a separator or an escape, and writes null as null', async () => {
    const texts = ['line one\nline two\r\n', 'tab\there', 'C:\\path\\N', '\\N', '温度 9.5 °C 超出 2–8 °C', ''];
    await db.tx((q) => q.copyIn('copy_probe (n, t)', copyText([...texts.map((t, i) => [i, t]), [texts.length, null]])));
    const rows = await db.query<{ n: number; t: string | null }>('SELECT n, t FROM copy_probe ORDER BY n');
    expect(rows.map((r) => r.t)).toEqual([...texts, null]);
  });

  it('unescaped, the same rows would not survive: the escaping is what keeps them', () => {
    // A raw newline would end the row early, a raw tab split the column, a raw "\N" read as null.
    expect(copyText([[1, 'a\nb']])).toBe('1\ta\\nb\n');
    expect(copyText([[1, 'a\tb']])).toBe('1\ta\\tb\n');
    expect(copyText([[1, '\\N']])).toBe('1\t\\\\N\n');
    expect(copyText([[1, null]])).toBe('1\t\\N\n');
  });
});
