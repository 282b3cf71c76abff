import { describe, expect, it } from 'vitest';
import { fileNameOf } from './saveFile';

describe('the downloaded file name (content-disposition)', () => {
  it('takes the UTF-8 name when given, else the plain one, else the fallback', () => {
    const name = '历史数据-冷库1-20260101-20261231.xlsx';
    expect(fileNameOf(`attachment; filename="____-___1-20260101-20261231.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`, 'x')).toBe(name);
    expect(fileNameOf('attachment; filename="history.csv"', 'x')).toBe('history.csv');
    expect(fileNameOf(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
