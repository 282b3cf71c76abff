import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS, readSheet } from './sheet.js';
import { MAX_CELL_CHARS } from './xml.js';
import { ZIP_LIMITS } from './zip.js';
import { bombXlsx, inlineCell, packPiece, SHEET_HEAD, SHEET_TAIL, workbookParts, zipOf, type Part } from './zip.fixture.js';

/** Reading import files (spec §5) within the limits of docs/security.md. */

const MB = 1024 * 1024;
const refusal = (msgKey: string) => expect.objectContaining({ msgKey });
const sheetOf = (rows: string) => zipOf(workbookParts(`${SHEET_HEAD}${rows}${SHEET_TAIL}`));
/** Deflate bytes that zlib refuses: a block of the reserved type 3. */
const BROKEN = Buffer.from([0xff, 0xff, 0xff, 0xff]);

describe('readSheet', () => {
  it('reads a workbook written as Excel writes it: header, rows by their Excel number, blank rows left out, values as text', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sensors');
    ws.addRow(['Device number', 'Interval', 'On', 'Sum', 'Note']);
    ws.addRow(['T0000001', 60, true, { formula: '1+1', result: 2 }, { richText: [{ text: 'cold ' }, { text: 'room', font: { bold: true } }] }]);
    ws.addRow([]);
    ws.getRow(4).getCell(1).value = '  T0000002 ';
    ws.getRow(4).getCell(8).value = 1.5;
    wb.addWorksheet('Help').addRow(['not read']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());

    expect(await readSheet(data)).toEqual({
      header: ['Device number', 'Interval', 'On', 'Sum', 'Note'],
      rows: [
        { row: 2, cells: ['T0000001', '60', 'true', '2', 'cold room'] },
        { row: 4, cells: ['T0000002', '', '', '', '', '', '', '1.5'] },
      ],
    });
  });

  it('reads what other writers produce: inline strings, entities, CDATA, prefixed names, stored parts; phonetic readings left out', async () => {
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
      `<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c r="B1" t="s"><x:v>0</x:v></x:c></x:row>` +
      `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>A &amp; B</x:t></x:is></x:c><x:c r="B2" t="str"><x:v><![CDATA[<5 °C]]></x:v></x:c></x:row>` +
      `<x:row r="3"><x:c r="A3" t="s"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const shared = '<sst><si><t>Place</t></si><si><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si></sst>';
    const data = zipOf(workbookParts(sheet, { sharedStrings: shared, sheetPart: { stored: true } }));
    expect(await readSheet(data)).toEqual({ header: ['Name', 'Place'], rows: [{ row: 2, cells: ['A & B', '<5 °C'] }, { row: 3, cells: ['東京'] }] });
  });

  it(`reads no column past ${IMPORT_MAX_COLUMNS}`, async () => {
    const r = await readSheet(sheetOf(`<row r="2">${inlineCell('A2', 'x')}${inlineCell('BL2', 'last')}${inlineCell('BM2', 'past')}${inlineCell('XFD2', 'far')}</row>`));
    expect(r.rows[0].cells.length).toBe(IMPORT_MAX_COLUMNS);
    expect(r.rows[0].cells.at(-1)).toBe('last');
  });
});

describe('readSheet refuses zip bombs', () => {
  it('refuses a 1,000 MB sheet from the zip directory', async () => {
    await expect(readSheet(bombXlsx(1000 * MB))).rejects.toEqual(expect.objectContaining({ msgKey: 'errors.xlsx.unpacked', code: 400, httpStatus: 400, vars: { entry: 16, total: 32 } }));
  });

  it('refuses from the directory alone, before inflating: a part declaring more than the part limit, parts declaring more than the total', async () => {
    // Their data does not inflate at all: only the directory can be what refuses them.
    const big: Part = { name: 'xl/worksheets/sheet1.xml', body: '', packed: BROKEN, declaredSize: ZIP_LIMITS.entryBytes + 1 };
    await expect(readSheet(zipOf(workbookParts('', { sheetPart: big })))).rejects.toEqual(refusal('errors.xlsx.unpacked'));
    const media = [1, 2, 3].map((i): Part => ({ name: `xl/media/image${i}.png`, body: '', packed: BROKEN, declaredSize: 12 * MB }));
    await expect(readSheet(zipOf(workbookParts(sheetOf(''), { extra: media })))).rejects.toEqual(refusal('errors.xlsx.unpacked'));
  });

  it(`refuses more than ${ZIP_LIMITS.entries} entries`, async () => {
    const extra = Array.from({ length: ZIP_LIMITS.entries }, (_, i): Part => ({ name: `docProps/custom${i}.xml`, body: '<x/>' }));
    await expect(readSheet(zipOf(workbookParts(`${SHEET_HEAD}${SHEET_TAIL}`, { extra })))).rejects.toEqual(refusal('errors.xlsx.entries'));
  });

  it('stops a sheet that inflates past the size its directory declares: a lying bomb, and real rows past the declared size', async () => {
    await expect(readSheet(bombXlsx(100 * MB, { lie: true }))).rejects.toEqual(refusal('errors.xlsx.damaged'));
    const rows = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 2}">${inlineCell(`A${i + 2}`, `T${String(i).padStart(7, '0')}`)}</row>`).join('');
    const body = `${SHEET_HEAD}${rows}${SHEET_TAIL}`;
    const honest = zipOf(workbookParts(body));
    expect((await readSheet(honest)).rows).toHaveLength(2000);
    const lying = zipOf(workbookParts(body, { sheetPart: { declaredSize: Buffer.byteLength(body) - 1000 } }));
    await expect(readSheet(lying)).rejects.toEqual(refusal('errors.xlsx.damaged'));
  });

  it(`stops at row ${IMPORT_MAX_ROWS + 1} without reading the rest of the sheet`, async () => {
    const row = `<row>${inlineCell('A1', 'T0000001')}</row>`;
    // A megabyte of rows past the limit, then deflate data that does not inflate: reaching it would answer "damaged".
    const rows = Buffer.from(`${SHEET_HEAD}${row.repeat(IMPORT_MAX_ROWS + 1)}${row.repeat(MB / row.length)}`);
    const sheet: Part = { name: 'xl/worksheets/sheet1.xml', body: '', packed: Buffer.concat([packPiece(rows, false), BROKEN]), declaredSize: 4 * MB };
    await expect(readSheet(zipOf(workbookParts('', { sheetPart: sheet })))).rejects.toEqual(refusal('errors.import.tooMany'));
  });

  it('reads only the shared strings the sheet uses, and not past the last of them', async () => {
    const used = '<sst><si><t>Device number</t></si><si><t>T0000001</t></si>';
    const unused = Buffer.from(`${used}${'<si><t>never used</t></si>'.repeat(MB / 25)}`);
    const shared: Part = { name: 'xl/sharedStrings.xml', body: '', packed: Buffer.concat([packPiece(unused, false), BROKEN]), declaredSize: 4 * MB };
    const sheet = `${SHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>${SHEET_TAIL}`;
    const parts = workbookParts(sheet, { sharedStrings: '' }).map((p) => (p.name === shared.name ? shared : p));
    expect(await readSheet(zipOf(parts))).toEqual({ header: ['Device number'], rows: [{ row: 2, cells: ['T0000001'] }] });
  });

  it(`refuses a cell longer than Excel allows (${MAX_CELL_CHARS} characters) and a DTD`, async () => {
    await expect(readSheet(sheetOf(`<row r="2">${inlineCell('A2', 'x'.repeat(MAX_CELL_CHARS + 1))}</row>`))).rejects.toEqual(refusal('errors.xlsx.cellTooLong'));
    const laughs = `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>`;
    await expect(readSheet(zipOf(workbookParts(laughs)))).rejects.toEqual(refusal('errors.xlsx.damaged'));
  });
});
