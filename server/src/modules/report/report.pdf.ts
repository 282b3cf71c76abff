import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import type { ReportLocale as Locale, MeasureFigures } from '@coldwatch/contract';
import { reportFonts } from './font.js';
import type { ReportCarrier, ReportException, ReportModel } from './report.model.js';
import { fill, fmtSeconds, localTime, reportTexts } from './texts.js';

/*
 * The carrier report as PDF (docs/reports.md "The report"), drawn with pdfkit's vector drawing
 * from a report's model: per carrier a header (customer, carrier, zone, period, time zone), the
 * chart of temperature (and humidity) with its zone band, the statistics, the exceptions with
 * their signed handling steps and signature images; then the report's own signatures and the
 * SHA-256 of its content; on every page "page n of m" and the generation time.
 */

export interface ReportSignature {
  userName: string;
  userAccount: string;
  meaning: 'reviewed' | 'approved';
  comment: string;
  signedAt: number;
  /** The signature image (PNG or JPEG), when the signer had one. */
  image: Buffer | null;
}

export interface RenderInput {
  id: number;
  model: ReportModel;
  /** The images of the steps' signature copies by id. */
  stepImages: Map<number, Buffer>;
  signatures: ReportSignature[];
}

const A4 = { w: 595.28, h: 841.89 };
const M = { top: 44, left: 42, right: 42, bottom: 50 };
const W = A4.w - M.left - M.right;
const COLOR = { text: '#1f2329', muted: '#646a73', line: '#d0d3d6', grid: '#eceef0', series: '#1677ff', hum: '#13a8a8', out: '#f5222d', band: '#52c41a', excluded: '#bfbfbf', head: '#f2f5f9' };

/** The SHA-256 (hex) of a model's content: printed in the report, so a page can be matched to its data. */
export const contentHash = (m: ReportModel) => createHash('sha256').update(JSON.stringify(m)).digest('hex');

const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(2)} %`);

/** Draws the report; answers the PDF's bytes. */
export async function renderReport(input: RenderInput): Promise<Buffer> {
  const { model, id } = input;
  const t = reportTexts(model.locale);
  const doc = new PDFDocument({
    size: 'A4',
    margins: M,
    bufferPages: true,
    autoFirstPage: true,
    info: {
      Title: `${t.title} ${model.groupName ?? model.carriers.map((c) => c.name).join(', ')}`,
      Author: model.generatedBy,
      Subject: model.customer.name,
      Creator: 'Coldwatch',
      Producer: 'Coldwatch (pdfkit)',
      CreationDate: new Date(model.generatedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const fonts = reportFonts();
  doc.registerFont('R', fonts.regular);
  doc.registerFont('B', fonts.bold);
  const d = new Drawer(doc, model.locale);

  model.carriers.forEach((c, i) => {
    if (i > 0) doc.addPage();
    d.carrierHeader(model, c);
    d.charts(model, c);
    d.statistics(c);
    d.exceptions(model, c, input.stepImages);
  });
  if (!model.carriers.length) d.paragraph(t.noReadings);
  d.signatures(model, input.signatures, contentHash(model));

  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = A4.h - 32;
    doc.moveTo(M.left, y - 6).lineTo(A4.w - M.right, y - 6).lineWidth(0.5).strokeColor(COLOR.line).stroke();
    doc.font('R').fontSize(7.5).fillColor(COLOR.muted);
    doc.text(`${fill(t.reportNo, { id })} · ${fill(t.generated, { time: `${localTime(model.generatedAt, model.tz)} (UTC${model.tz})`, by: model.generatedBy })}`, M.left, y, {
      width: W * 0.75,
      lineBreak: false,
    });
    doc.text(fill(t.footer, { page: p - range.start + 1, pages: range.count }), M.left + W * 0.75, y, { width: W * 0.25, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

class Drawer {
  private readonly t;
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly locale: Locale,
  ) {
    this.t = reportTexts(locale);
  }

  private get bottom() {
    return A4.h - M.bottom;
  }

  /** A new page when `h` points do not fit below the cursor. */
  private need(h: number) {
    if (this.doc.y + h > this.bottom) this.doc.addPage();
  }

  paragraph(text: string, size = 9, color = COLOR.text) {
    this.doc.font('R').fontSize(size).fillColor(color);
    this.need(this.doc.heightOfString(text, { width: W }) + 2);
    this.doc.text(text, M.left, this.doc.y, { width: W });
  }

  private heading(text: string) {
    this.need(40);
    this.doc.moveDown(0.6);
    const y = this.doc.y;
    this.doc.rect(M.left, y, 3, 13).fill(COLOR.series);
    this.doc.font('B').fontSize(11).fillColor(COLOR.text).text(text, M.left + 8, y, { width: W - 8 });
    this.doc.moveDown(0.3);
  }

  carrierHeader(m: ReportModel, c: ReportCarrier) {
    const { doc, t } = this;
    doc.font('B').fontSize(16).fillColor(COLOR.text).text(t.title, M.left, M.top, { width: W });
    doc.font('B').fontSize(13).fillColor(COLOR.series).text(c.name, { width: W });
    doc.moveDown(0.4);
    const zone = [
      c.zone.tempMin !== null || c.zone.tempMax !== null ? `${num(c.zone.tempMin, 1)} ~ ${num(c.zone.tempMax, 1)} °C` : null,
      c.zone.humMin !== null || c.zone.humMax !== null ? `${num(c.zone.humMin, 0)} ~ ${num(c.zone.humMax, 0)} %RH` : null,
    ]
      .filter(Boolean)
      .join('   ');
    const rows: [string, string][] = [
      [t.customer, m.customer.name],
      [t.carrier, `${c.name}`],
      [t.carrierType, t.carrierTypes[c.type] ?? String(c.type)],
      [t.zone, zone || t.noZone],
      [t.period, `${localTime(m.start, m.tz)} — ${localTime(m.end, m.tz)}`],
      [t.tz, `UTC${m.tz}`],
    ];
    if (m.groupName) rows.splice(1, 0, [t.group, m.groupName]);
    const y0 = doc.y;
    const half = Math.ceil(rows.length / 2);
    const colW = W / 2;
    const rowH = 17;
    doc.rect(M.left, y0, W, half * rowH + 6).fill(COLOR.head);
    rows.forEach(([k, v], i) => {
      const col = i < half ? 0 : 1;
      const x = M.left + 8 + col * colW;
      const y = y0 + 5 + (i % half) * rowH;
      doc.font('R').fontSize(8).fillColor(COLOR.muted).text(k, x, y + 1, { width: 62, lineBreak: false });
      doc.font('B').fontSize(9).fillColor(COLOR.text).text(v, x + 64, y, { width: colW - 80, height: rowH, ellipsis: true, lineBreak: false });
    });
    doc.x = M.left;
    doc.y = y0 + half * rowH + 12;
  }

  charts(m: ReportModel, c: ReportCarrier) {
    const hasHum = c.series.some((p) => p[2] !== null);
    this.need(200);
    this.chart(m, c, 1, 190);
    if (hasHum) {
      this.need(140);
      this.chart(m, c, 2, 125);
    }
  }

  /** One measure's chart: the zone band, the limits dashed, excluded time shaded, the series, out-of-zone stretches in red. */
  private chart(m: ReportModel, c: ReportCarrier, idx: 1 | 2, height: number) {
    const { doc, t } = this;
    const lo = idx === 1 ? c.zone.tempMin : c.zone.humMin;
    const hi = idx === 1 ? c.zone.tempMax : c.zone.humMax;
    const title = idx === 1 ? t.chartTemp : t.chartHum;
    const pts = c.series.filter((p) => p[idx] !== null).map((p) => [p[0], p[idx] as number] as const);
    const top = doc.y + 4;
    doc.font('B').fontSize(9).fillColor(COLOR.text).text(title, M.left, top, { lineBreak: false });
    this.legend(top, idx === 1 ? COLOR.series : COLOR.hum);
    const box = { x: M.left + 34, y: top + 16, w: W - 40, h: height - 40 };
    doc.lineWidth(0.6).rect(box.x, box.y, box.w, box.h).strokeColor(COLOR.line).stroke();
    const values = pts.map((p) => p[1]);
    if (!values.length) {
      doc.font('R').fontSize(9).fillColor(COLOR.muted).text(t.noReadings, box.x, box.y + box.h / 2 - 5, { width: box.w, align: 'center', lineBreak: false });
      doc.x = M.left;
      doc.y = box.y + box.h + 22;
      return;
    }
    let yMin = Math.min(...values, ...(lo !== null ? [lo] : []), ...(hi !== null ? [hi] : []));
    let yMax = Math.max(...values, ...(lo !== null ? [lo] : []), ...(hi !== null ? [hi] : []));
    if (yMax - yMin < 1) {
      yMin -= 0.5;
      yMax += 0.5;
    }
    const ticks = niceTicks(yMin - (yMax - yMin) * 0.08, yMax + (yMax - yMin) * 0.08, 5);
    yMin = ticks[0];
    yMax = ticks[ticks.length - 1];
    const X = (ts: number) => box.x + ((ts - m.start) / Math.max(1, m.end - m.start)) * box.w;
    const Y = (v: number) => box.y + box.h - ((v - yMin) / (yMax - yMin)) * box.h;
    const clampY = (v: number) => Math.max(box.y, Math.min(box.y + box.h, Y(v)));

    doc.save();
    doc.rect(box.x, box.y, box.w, box.h).clip();
    // Grid and the value axis.
    for (const v of ticks) {
      doc.moveTo(box.x, Y(v)).lineTo(box.x + box.w, Y(v)).lineWidth(0.4).strokeColor(COLOR.grid).stroke();
    }
    // Time excluded by invalid rules.
    for (const x of c.excluded) {
      doc.rect(X(Math.max(x.start, m.start)), box.y, Math.max(0.5, X(Math.min(x.end, m.end)) - X(Math.max(x.start, m.start))), box.h).fillOpacity(0.25).fill(COLOR.excluded);
    }
    doc.fillOpacity(1);
    // The zone band and its limits.
    if (lo !== null || hi !== null) {
      const yTop = hi !== null ? clampY(hi) : box.y;
      const yBottom = lo !== null ? clampY(lo) : box.y + box.h;
      doc.rect(box.x, yTop, box.w, Math.max(0, yBottom - yTop)).fillOpacity(0.13).fill(COLOR.band);
      doc.fillOpacity(1);
      doc.dash(3, { space: 2 });
      for (const v of [lo, hi]) if (v !== null) doc.moveTo(box.x, Y(v)).lineTo(box.x + box.w, Y(v)).lineWidth(0.8).strokeColor(COLOR.band).stroke();
      doc.undash();
    }
    // The series: a step between readings would need twice the points; a line reads as well at this size.
    const out = (v: number) => (lo !== null && v < lo) || (hi !== null && v > hi);
    doc.lineWidth(0.9).strokeColor(idx === 1 ? COLOR.series : COLOR.hum);
    pts.forEach(([ts, v], i) => (i === 0 ? doc.moveTo(X(ts), Y(v)) : doc.lineTo(X(ts), Y(v))));
    if (pts.length === 1) doc.circle(X(pts[0][0]), Y(pts[0][1]), 1.5).fill(idx === 1 ? COLOR.series : COLOR.hum);
    else doc.stroke();
    doc.lineWidth(1.1).strokeColor(COLOR.out);
    for (let i = 1; i < pts.length; i++) {
      const [a, b] = [pts[i - 1], pts[i]];
      if (out(a[1]) || out(b[1])) doc.moveTo(X(a[0]), Y(a[1])).lineTo(X(b[0]), Y(b[1])).stroke();
    }
    for (const p of pts) if (out(p[1])) doc.circle(X(p[0]), Y(p[1]), 0.9).fill(COLOR.out);
    doc.restore();

    // Axis labels.
    doc.font('R').fontSize(7).fillColor(COLOR.muted);
    for (const v of ticks) doc.text(formatTick(v), M.left, Y(v) - 3.5, { width: 30, align: 'right', lineBreak: false });
    const days = (m.end - m.start) / 86_400_000;
    const n = 6;
    for (let i = 0; i <= n; i++) {
      const ts = m.start + ((m.end - m.start) * i) / n;
      const s = localTime(ts, m.tz);
      const label = days > 3 ? s.slice(5, 10) + (days <= 14 ? s.slice(10) : '') : s.slice(5);
      const x = X(ts);
      doc.moveTo(x, box.y + box.h).lineTo(x, box.y + box.h + 3).lineWidth(0.5).strokeColor(COLOR.line).stroke();
      doc.text(label, i === 0 ? x : i === n ? x - 80 : x - 40, box.y + box.h + 5, { width: 80, align: i === 0 ? 'left' : i === n ? 'right' : 'center', lineBreak: false });
    }
    doc.x = M.left;
    doc.y = box.y + box.h + 20;
  }

  private legend(y: number, seriesColor: string) {
    const { doc, t } = this;
    let x = M.left + W - 240;
    doc.rect(x, y + 1, 14, 7).fillOpacity(0.25).fill(COLOR.band);
    doc.fillOpacity(1);
    doc.font('R').fontSize(7.5).fillColor(COLOR.muted).text(t.legendZone, x + 18, y, { lineBreak: false });
    x += 80;
    doc.moveTo(x, y + 4.5).lineTo(x + 14, y + 4.5).lineWidth(1.2).strokeColor(seriesColor).stroke();
    doc.text(t.legendSeries, x + 18, y, { lineBreak: false });
    x += 80;
    doc.moveTo(x, y + 4.5).lineTo(x + 14, y + 4.5).lineWidth(1.2).strokeColor(COLOR.out).stroke();
    doc.text(t.legendOut, x + 18, y, { lineBreak: false });
  }

  statistics(c: ReportCarrier) {
    const { doc, t, locale } = this;
    this.heading(t.statistics);
    const tf = c.summary?.temp ?? null;
    const hf = c.summary?.hum ?? null;
    const both = (f: (x: MeasureFigures, unit: string) => string): [string, string] => [tf ? f(tf, '°C') : '—', hf ? f(hf, '%RH') : '—'];
    const rows: [string, string, string][] = [
      [t.min, ...both((x, u) => `${num(x.min)} ${u}`)],
      [t.max, ...both((x, u) => `${num(x.max)} ${u}`)],
      [t.avg, ...both((x, u) => `${num(x.avg)} ${u}`)],
      [t.stdDev, ...both((x) => num(x.stdDev))],
      [fill(t.mkt, { dh: c.mktDh }), tf ? `${num(tf.mkt)} °C` : '—', '—'],
      [t.passRate, ...both((x) => pct(x.passRate))],
      [t.timeInZone, ...both((x) => (x.timeInZoneS === null ? '—' : fmtSeconds(x.timeInZoneS, locale)))],
      [t.excursions, ...both((x) => String(x.excursions))],
      [t.excursionTime, ...both((x) => fmtSeconds(x.excursionS, locale))],
      [t.offlineRate, ...both((x) => pct(x.offlineRate))],
      [t.readings, ...both((x) => String(x.readings))],
    ];
    const widths = [W * 0.44, W * 0.28, W * 0.28];
    const rowH = 15;
    this.need(rowH * (rows.length + 1) + 4);
    let y = doc.y;
    const cells = (r: string[], bold: boolean, fillBg: boolean) => {
      if (fillBg) doc.rect(M.left, y, W, rowH).fill(COLOR.head);
      let x = M.left;
      r.forEach((s, i) => {
        doc.font(bold ? 'B' : 'R').fontSize(8.5).fillColor(COLOR.text).text(s, x + 6, y + 3.5, { width: widths[i] - 10, lineBreak: false, ellipsis: true });
        x += widths[i];
      });
      doc.moveTo(M.left, y + rowH).lineTo(M.left + W, y + rowH).lineWidth(0.4).strokeColor(COLOR.line).stroke();
      y += rowH;
    };
    cells([t.measure, t.temp, t.hum], true, true);
    rows.forEach((r) => cells(r, false, false));
    doc.x = M.left;
    doc.y = y + 4;
  }

  exceptions(m: ReportModel, c: ReportCarrier, images: Map<number, Buffer>) {
    const { t } = this;
    this.heading(t.exceptions);
    if (!c.exceptions.length) {
      this.paragraph(t.noExceptions, 9, COLOR.muted);
      return;
    }
    for (const e of c.exceptions) this.exception(m, e, images);
    if (c.moreExceptions > 0) this.paragraph(`… +${c.moreExceptions}`, 9, COLOR.muted);
  }

  private exception(m: ReportModel, e: ReportException, images: Map<number, Buffer>) {
    const { doc, t, locale } = this;
    const end = e.endTs === null ? t.ongoing : localTime(e.endTs, m.tz);
    const head = `#${e.id}  ${t.category[e.category] ?? e.category}   ${t.exStart} ${localTime(e.startTs, m.tz)}   ${t.exEnd} ${end}   ${t.exDuration} ${
      e.durationS === null ? '—' : fmtSeconds(e.durationS, locale)
    }   ${t.exPeak} ${num(e.peakValue)}   ${t.exStatus} ${t.status[e.status] ?? e.status}`;
    doc.font('B').fontSize(8.5);
    this.need(doc.heightOfString(head, { width: W }) + 14);
    doc.moveDown(0.25);
    doc.fillColor(COLOR.text).text(head, M.left, doc.y, { width: W });
    if (!e.steps.length) {
      doc.font('R').fontSize(8).fillColor(COLOR.out).text(t.noSteps, M.left + 12, doc.y + 1, { width: W - 12 });
      return;
    }
    for (const s of e.steps) {
      const lines = [
        fill(t.step, { time: localTime(s.signedAt, m.tz), action: t.action[s.action] ?? s.action, meaning: t.meaning[s.meaning] ?? s.meaning, name: s.userName, account: s.userAccount }),
      ];
      if (s.reason || s.measures) lines.push(fill(t.stepReason, { reason: s.reason || '—', measures: s.measures || '—' }));
      if (s.comment) lines.push(fill(t.stepComment, { comment: s.comment }));
      const text = lines.join('\n');
      const img = s.signatureId !== null ? images.get(s.signatureId) : undefined;
      const textW = W - 12 - (img ? 90 : 0);
      doc.font('R').fontSize(8);
      const h = Math.max(doc.heightOfString(text, { width: textW }), img ? 26 : 0) + 3;
      this.need(h);
      const y = doc.y + 1;
      doc.fillColor(COLOR.muted).text(text, M.left + 12, y, { width: textW });
      if (img) {
        try {
          doc.image(img, M.left + W - 84, y, { fit: [84, 26] });
        } catch {
          // An image pdfkit cannot read is left out; the signer's name is printed above.
        }
      }
      doc.x = M.left;
      doc.y = y + h;
    }
  }

  signatures(m: ReportModel, sigs: ReportSignature[], hash: string) {
    const { doc, t } = this;
    this.heading(t.signatures);
    if (!sigs.length) this.paragraph(t.unsigned, 9, COLOR.text);
    for (const s of sigs) {
      const line = fill(t.signedLine, { meaning: t.meaning[s.meaning], name: s.userName, account: s.userAccount, time: `${localTime(s.signedAt, m.tz, true)} (UTC${m.tz})` });
      const text = s.comment ? `${line}\n${fill(t.signComment, { comment: s.comment })}` : line;
      doc.font('R').fontSize(9);
      const h = Math.max(doc.heightOfString(text, { width: W - 140 }), s.image ? 36 : 0) + 6;
      this.need(h);
      const y = doc.y;
      doc.fillColor(COLOR.text).text(text, M.left, y, { width: W - 140 });
      if (s.image) {
        try {
          doc.image(s.image, M.left + W - 130, y, { fit: [130, 36] });
        } catch {
          // As for the steps: the name and time stand without the image.
        }
      }
      doc.x = M.left;
      doc.y = y + h;
    }
    doc.moveDown(0.5);
    this.paragraph(fill(t.contentHash, { hash }), 7.5, COLOR.muted);
    this.paragraph(t.hashNote, 7.5, COLOR.muted);
  }
}

/** About `count` round ticks covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let v = first; v < hi + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

const formatTick = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) < 10 ? 1 : 0));
