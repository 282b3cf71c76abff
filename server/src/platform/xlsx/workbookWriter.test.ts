import { Writable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS, readSheet } from './sheet.js';
import { wallClock, WorkbookWriter } from './workbookWriter.js';
import { MAX_CELL_CHARS } from './xml.js';

/** The export's xlsx writer (docs/exports.md "Formats"), read back by exceljs, by our own import reader and by hand. */

async function write(fill: (book: WorkbookWriter) => void): Promise<Buffer> {
  const parts: Buffer[] = [];
  const book = new WorkbookWriter(new Writable({ write: (c: Buffer, _e, done) => (parts.push(c), done()) }));
  fill(book);
  await book.end();
  return Buffer.concat(parts);
}

/** Every entry of the zip by its central directory, inflated, its CRC and size checked against the directory. */
function unzip(data: Buffer): Map<string, string> {
  const eocd = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  const out = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(data.readUInt32LE(p)).toBe(0x02014b50);
    const nameLength = data.readUInt16LE(p + 28);
    const name = data.toString('utf8', p + 46, p + 46 + nameLength);
    const [crc, packed, size, at] = [data.readUInt32LE(p + 16), data.readUInt32LE(p + 20), data.readUInt32LE(p + 24), data.readUInt32LE(p + 42)];
    expect(data.readUInt32LE(at)).toBe(0x04034b50);
    const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const body = inflateRawSync(data.subarray(start, start + packed));
    expect({ name, size: body.length, crc: crc32(body) }).toEqual({ name, size, crc });
    // The data descriptor after the data repeats them.
    expect([data.readUInt32LE(start + packed), data.readUInt32LE(start + packed + 4), data.readUInt32LE(start + packed + 12)]).toEqual([0x08074b50, crc, size]);
    out.set(name, body.toString());
    p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
  }
  return out;
}

describe('WorkbookWriter', () => {
  const T = Date.UTC(2025, 6, 1, 0, 0, 0); // 08:00 at +08:00
  const at = wallClock('+08:00');
  const N = 30_000; // several pieces of deflate joined into one entry

  it('writes rows exceljs reads back: count, numbers, times as date-times, Chinese, text that looks like a formula, blanks in their place', async () => {
    const file = await write((book) => {
      book.sheet('历史 T0000001', ['时间（UTC+08:00）', '设备', '监测点', '温度', '状态'], [20, 14, 24, 14, 12]);
      for (let i = 0; i < N; i++) book.row([at(T + i * 60_000), 'T0000001', '冷库一号', i === 100 ? 10 : 4.25, i === 100 ? '高于区间' : null]);
      book.row([at(T), '=1+1', '+SUM(A1:A2)', null, ' padded <&> ']);
      book.sheet('历史 T0000001', ['a']); // a second sheet of the same name
      book.row([true, 'x\u0001y', 'z'.repeat(MAX_CELL_CHARS + 10), -0.5, undefined, 'last']);
    });

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['历史 T0000001', '历史 T0000001 (2)']);
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(N + 2);
    expect(ws.getRow(1).values).toEqual([undefined, '时间（UTC+08:00）', '设备', '监测点', '温度', '状态']);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    // A date-time cell of the wall clock: exceljs hands it over as that clock's time in UTC.
    expect(ws.getRow(2).getCell(1).value).toEqual(new Date('2025-07-01T08:00:00.000Z'));
    expect(ws.getRow(2).getCell(1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(ws.getRow(N + 1).getCell(1).value).toEqual(new Date(Date.UTC(2025, 6, 1, 8) + (N - 1) * 60_000));
    expect(ws.getRow(2).getCell(4).value).toBe(4.25);
    expect(ws.getRow(102).values).toEqual([undefined, expect.any(Date), 'T0000001', '冷库一号', 10, '高于区间']);
    // Text is text, never a formula; the blank keeps the cell after it in its column.
    const last = ws.getRow(N + 2);
    expect([last.getCell(2).value, last.getCell(2).type, last.getCell(3).value]).toEqual(['=1+1', ExcelJS.ValueType.String, '+SUM(A1:A2)']);
    expect([last.getCell(4).value, last.getCell(5).value]).toEqual([null, ' padded <&> ']);
    const second = wb.worksheets[1].getRow(2);
    expect(second.getCell(1).value).toBe(true);
    expect(second.getCell(2).value).toBe('xy'); // a control character XML cannot carry is left out
    expect(String(second.getCell(3).value)).toHaveLength(MAX_CELL_CHARS);
    expect([second.getCell(4).value, second.getCell(5).value, second.getCell(6).value]).toEqual([-0.5, null, 'last']);
  });

  it('is a well-formed zip: every entry inflates to the size and CRC of its directory and data descriptor; the import reader reads its first sheet', async () => {
    const file = await write((book) => {
      book.sheet('Readings', ['Time', 'Device', 'Note']);
      for (let i = 0; i < IMPORT_MAX_ROWS; i++) book.row([at(T + i * 60_000), `T${String(i).padStart(7, '0')}`, i % 2 ? '東京' : '=cmd|calc']);
    });
    const parts = unzip(file);
    expect([...parts.keys()].sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect(parts.get('xl/worksheets/sheet1.xml')).not.toContain('<f>');
    const read = await readSheet(file);
    expect(read.header).toEqual(['Time', 'Device', 'Note']);
    expect(read.rows).toHaveLength(IMPORT_MAX_ROWS);
    expect(read.rows[1]).toEqual({ row: 3, cells: [expect.stringMatching(/^45839\.33/), 'T0000001', '東京'] });
    expect(read.rows[0].cells[2]).toBe('=cmd|calc');
  });

  it('writes an empty workbook as one empty sheet Excel opens', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await write(() => undefined)) as never);
    expect(wb.worksheets.map((w) => [w.name, w.rowCount])).toEqual([['Sheet', 0]]);
  });
});
