import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { reportFonts } from '../report/font.js';
import type { SensorLabel } from './label.repository.js';

/*
 * A sheet of sensor labels: A4, `perPage` labels a page in a grid (one column up to 2 labels,
 * two up to 12, three up to 27, four beyond), each with the sensor's number as QR code and in
 * large type, its carrier and customer, framed by a thin cutting line.
 */

const A4 = { w: 595.28, h: 841.89 };
const MARGIN = 28;
const GAP = 6;

/** Columns of the grid for a number of labels a page: the cells stay about as wide as high on A4. */
export function gridOf(perPage: number): { cols: number; rows: number } {
  const cols = perPage <= 2 ? 1 : perPage <= 12 ? 2 : perPage <= 27 ? 3 : 4;
  return { cols, rows: Math.ceil(perPage / cols) };
}

export async function renderLabels(labels: SensorLabel[], perPage: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false, info: { Title: 'Sensor labels', Producer: 'Coldwatch' } });
  const fonts = reportFonts();
  doc.registerFont('R', fonts.regular);
  doc.registerFont('B', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const { cols, rows } = gridOf(perPage);
  const cellW = (A4.w - 2 * MARGIN - (cols - 1) * GAP) / cols;
  const cellH = (A4.h - 2 * MARGIN - (rows - 1) * GAP) / rows;
  const pad = Math.min(10, cellH / 10);
  const qrSize = Math.min(cellH - 2 * pad, cellW * 0.42);
  const big = Math.max(7, Math.min(22, cellH / 6, (cellW - qrSize - 3 * pad) / 7));
  const small = Math.max(6, big * 0.6);

  for (let i = 0; i < labels.length; i++) {
    const slot = i % perPage;
    if (slot === 0) doc.addPage();
    const x = MARGIN + (slot % cols) * (cellW + GAP);
    const y = MARGIN + Math.floor(slot / cols) * (cellH + GAP);
    const l = labels[i];
    doc.save().lineWidth(0.5).dash(3, { space: 3 }).strokeColor('#9aa0a6').rect(x, y, cellW, cellH).stroke().restore();
    const qr = await QRCode.toBuffer(l.devNo, { type: 'png', margin: 1, width: 256, errorCorrectionLevel: 'M' });
    doc.image(qr, x + pad, y + (cellH - qrSize) / 2, { width: qrSize, height: qrSize });
    const tx = x + 2 * pad + qrSize;
    const tw = cellW - qrSize - 3 * pad;
    const lines: [string, string, number][] = [
      ['B', l.devNo, big],
      ['R', l.carrierName ?? '', small],
      ['R', l.customerName, small],
      ['R', l.type, small],
    ];
    const height = lines.reduce((h, [, , s]) => h + s * 1.35, 0);
    let ty = y + Math.max(pad, (cellH - height) / 2);
    for (const [font, text, size] of lines) {
      if (!text) continue;
      doc.font(font).fontSize(size).fillColor('#1f2329').text(text, tx, ty, { width: tw, lineBreak: false, ellipsis: true });
      ty += size * 1.35;
    }
  }
  doc.end();
  return done;
}
