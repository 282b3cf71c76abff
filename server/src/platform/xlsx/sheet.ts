import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { Code } from '@coldwatch/contract';
import { AppError } from '../http/errors.js';

/**
 * Import files of spec §5 ("import files must be xlsx"): reading the first sheet of an uploaded
 * workbook into rows of text, and writing a template. Shared by every import (sensors now; gas
 * detectors and door magnets later).
 */

/** An import of 5,000 devices fits easily; beyond this the file is refused before it is parsed. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]); // a zip container

/** The uploaded xlsx (by extension and by its zip signature), or the §8 messages. */
export async function readXlsxUpload(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw new AppError(Code.FAILED, 'errors.upload.noFile');
  const data = await part.toBuffer();
  if (part.file.truncated) throw new AppError(Code.FAILED, 'errors.import.tooLarge');
  const ext = (part.filename.split('.').pop() ?? '').toLowerCase();
  if (ext !== 'xlsx' || !data.subarray(0, 4).equals(XLSX_MAGIC)) throw new AppError(Code.FAILED, 'errors.import.notXlsx');
  return data;
}

const text = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return text(v.result as ExcelJS.CellValue);
    if (v instanceof Date) return v.toISOString();
  }
  return String(v).trim();
};

/** The first sheet as a header and rows of trimmed text (row numbers as Excel shows them); blank rows are left out. */
export async function readSheet(data: Buffer): Promise<{ header: string[]; rows: { row: number; cells: string[] }[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new AppError(Code.FAILED, 'errors.import.notXlsx');
  }
  const ws = wb.worksheets[0];
  if (!ws || ws.rowCount === 0) throw new AppError(Code.FAILED, 'errors.import.empty');
  const header = ((ws.getRow(1).values as ExcelJS.CellValue[]) ?? []).slice(1).map(text);
  const rows: { row: number; cells: string[] }[] = [];
  for (let i = 2; i <= ws.rowCount; i++) {
    const cells = ((ws.getRow(i).values as ExcelJS.CellValue[]) ?? []).slice(1).map(text);
    if (cells.some((c) => c !== '')) rows.push({ row: i, cells });
    if (rows.length > IMPORT_MAX_ROWS) throw new AppError(Code.FAILED, 'errors.import.tooMany', 200, undefined, { max: IMPORT_MAX_ROWS });
  }
  return { header, rows };
}

/** A template: the header, an example row, and a second sheet explaining the coded columns. */
export async function writeTemplate(sheetName: string, header: string[], example: string[], codes: { title: string; rows: [string, string][] }): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  ws.addRow(header).font = { bold: true };
  ws.addRow(example);
  ws.columns.forEach((c) => (c.width = 22));
  const help = wb.addWorksheet(codes.title);
  for (const r of codes.rows) help.addRow(r);
  help.columns.forEach((c) => (c.width = 32));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
