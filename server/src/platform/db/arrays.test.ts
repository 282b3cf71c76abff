import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb } from '../../../test/db.js';
import type { Db } from './client.js';
import { arrayParams, arrayText } from './arrays.js';

/** Array parameters written as array text (arrays.ts) reach PostgreSQL as the arrays they were. */
describe('array parameters', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await emptyDb());
  });
  afterAll(() => drop());

  const texts = ['NULL', 'null', '', ' padded ', 'a,b', '{braces}', 'quote " here', 'back\\slash', '\\"', '温度 9.5 °C', 'line\nbreak', null];

  it('round-trips numbers, times, texts and nulls through the casts the statements use', async () => {
    const ints = [1, -2, 2147483647, null, 0];
    const floats = [4.37, -0.5, 1e-6, 123456.789, null, Number.NaN, Number.POSITIVE_INFINITY];
    const times = ['2026-11-27T10:52:07.329Z', null, '2000-01-01T00:00:00.000Z'];
    const [row] = await db.query<{ i: number[]; f: number[]; r: number[]; t: Date[]; s: string[]; b: boolean[]; n: number }>(
      `SELECT $1::int[] AS i, $2::float8[] AS f, $3::real[] AS r, $4::timestamptz[] AS t, $5::text[] AS s, $6::bool[] AS b, cardinality($7::int[]) AS n`,
      [ints, floats, [4.37, null], times, texts, [true, false, null], []],
    );
    expect(row.i).toEqual(ints);
    expect(row.f).toEqual(floats);
    expect(row.r).toEqual([4.37, null]);
    expect(row.t.map((d) => d?.toISOString() ?? null)).toEqual(times);
    expect(row.s).toEqual(texts);
    expect(row.b).toEqual([true, false, null]);
    expect(row.n).toBe(0);
  });

  it('inside a transaction and through unnest as the ingest binds its batches', async () => {
    const rows = await db.tx((q) => q.query<{ s: number; t: string | null }>('SELECT * FROM unnest($1::int[], $2::text[]) AS v(s, t) ORDER BY s', [texts.map((_, i) => i), texts]));
    expect(rows.map((r) => r.t)).toEqual(texts);
  });

  it('quotes every text: unquoted, NULL would be null, and commas, braces and spaces would change the array', () => {
    expect(arrayText(['NULL', 'a,b', ' x ', '{}', ''])).toBe('{"NULL","a,b"," x ","{}",""}');
    expect(arrayText(['say "hi"', 'C:\\dir'])).toBe('{"say \\"hi\\"","C:\\\\dir"}');
    expect(arrayText([1, null, 2.5, true, 10n])).toBe('{1,NULL,2.5,true,10}');
  });

  it('leaves to node-postgres the arrays it does not write (dates, nested arrays, buffers, objects) and the other parameters', async () => {
    const when = new Date('2026-01-02T03:04:05.006Z');
    expect(arrayText([when])).toBeUndefined();
    expect(arrayText([[1, 2]])).toBeUndefined();
    expect(arrayText([Buffer.from('x')])).toBeUndefined();
    const params = [[when], 'text', 5, [1, 2]];
    expect(arrayParams(params)).toEqual([[when], 'text', 5, '{1,2}']);
    const plain = ['a', 1];
    expect(arrayParams(plain)).toBe(plain);
    expect(arrayParams(undefined)).toBeUndefined();
    const [row] = await db.query<{ t: Date[]; m: number[][] }>('SELECT $1::timestamptz[] AS t, $2::int[] AS m', [[when], [[1, 2], [3, 4]]]);
    expect(row.t[0].toISOString()).toBe(when.toISOString());
    expect(row.m).toEqual([[1, 2], [3, 4]]);
  });
});
