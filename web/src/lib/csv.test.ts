import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csv', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1.5, null]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1.5,');
  });
  it('defuses cells a spreadsheet would run as formulas, but keeps negative numbers', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell('-3.5')).toBe('-3.5');
  });
  it('defuses every cell beginning with =, +, -, @, tab or carriage return (OWASP), a number-led formula too', () => {
    expect(csvCell('-2+3+HYPERLINK("http://evil.example/","x")')).toBe(`"'-2+3+HYPERLINK(""http://evil.example/"",""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1e3')).toBe("'-1e3");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('1-2')).toBe('1-2');
  });
  it('writes the tables\' "no value" mark as it is, and still defuses a formula behind dashes', () => {
    expect(csvCell('--')).toBe('--');
    expect(csvCell('--1+1')).toBe("'--1+1");
  });
});
