import { randomBytes } from 'node:crypto';
import { ALPHABET, GLYPH_H, GLYPH_W, GLYPHS, type Pt, type Stroke } from './font.js';
import { encodePng } from './png.js';

/*
 * The login picture code as a raster: a script that reads it must recognise bent, touching,
 * crossed-out characters in pixels, not look up a shape. What defeats the cheap attacks
 * (picture.test.ts runs them):
 * - per character a random rotation, scale (x and y apart), shear and stroke width, and a sine
 *   warp of the whole picture after drawing, so no two renderings of a character share pixels
 *   and an averaged template matches poorly;
 * - characters about a glyph's width apart, so once turned and sheared they touch or overlap;
 * - one wavy strike-through as thick as the text and in the same ink, so every column holds ink
 *   (cutting by columns fails) and a morphological opening that wipes speckle and hairlines
 *   keeps it too;
 * - one ink for text and strike-through, shading between two dark colours across the picture, so
 *   sorting pixels by colour neither parts the characters nor lifts the line off;
 * - a mottled background, faint lines and speckle, so no fixed threshold yields clean glyphs.
 * Every choice comes from `random`, crypto-backed in production (one picture per request).
 * Closer spacing, thinner lines or more of them were tried and made codes people misread.
 */

export const PICTURE_W = 180;
export const PICTURE_H = 60;
export const CODE_LENGTH = 4;

export type Random = () => number;

/** Uniform floats in [0, 1) from the OS's generator, read from a pooled buffer to stay cheap. */
export function cryptoRandom(): Random {
  let pool = randomBytes(1024);
  let at = 0;
  return () => {
    if (at + 4 > pool.length) {
      pool = randomBytes(1024);
      at = 0;
    }
    const v = pool.readUInt32LE(at);
    at += 4;
    return v / 0x1_0000_0000;
  };
}

export function pickCode(random: Random, length = CODE_LENGTH): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return s;
}

export interface DrawOptions {
  random: Random;
  /**
   * Tests only. `distort: false` draws the text the same way every time, upright, apart and
   * unwarped; `noise: false` leaves out background, lines and speckle (it follows `distort` unless
   * given). They let a test build an attacker's clean templates and a control the attack must solve.
   */
  distort?: boolean;
  noise?: boolean;
  width?: number;
  height?: number;
}

interface Raster {
  width: number;
  height: number;
  /** Three bytes a pixel, rows top to bottom. */
  rgb: Uint8Array;
}

type Rgb = readonly [number, number, number];

/** A float RGB canvas plus one coverage mask, so a character's own strokes do not darken where they join. */
class Canvas {
  readonly px: Float32Array;
  private readonly mask: Float32Array;
  private box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };

  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Float32Array(w * h * 3);
    this.mask = new Float32Array(w * h);
  }

  /** Anti-aliased capsule from a to b of half-width `hw`: coverage falls off over one pixel at the edge. */
  segment(a: Pt, b: Pt, hw: number): void {
    const { w, h, mask } = this;
    const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0]) - hw - 1));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(a[0], b[0]) + hw + 1));
    const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1]) - hw - 1));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(a[1], b[1]) + hw + 1));
    if (x0 > x1 || y0 > y1) return;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy || 1e-9;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5 - a[1];
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5 - a[0];
        const t = Math.min(1, Math.max(0, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        const cov = hw + 0.5 - Math.sqrt(ex * ex + ey * ey);
        if (cov <= 0) continue;
        const i = y * w + x;
        const c = cov > 1 ? 1 : cov;
        if (c > mask[i]) mask[i] = c;
      }
    }
    const bx = this.box;
    bx.x0 = Math.min(bx.x0, x0);
    bx.y0 = Math.min(bx.y0, y0);
    bx.x1 = Math.max(bx.x1, x1);
    bx.y1 = Math.max(bx.y1, y1);
  }

  polyline(pts: readonly Pt[], hw: number): void {
    for (let i = 1; i < pts.length; i++) this.segment(pts[i - 1], pts[i], hw);
  }

  /** Paints what the mask covers in `paint`, then clears the mask for the next shape. */
  fill(paint: Rgb | Ink, alpha = 1): void {
    const { px, mask, w } = this;
    const { x0, y0, x1, y1 } = this.box;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const i = y * w + x;
        const a = mask[i] * alpha;
        if (a === 0) continue;
        mask[i] = 0;
        const color = paint instanceof Ink ? paint.at(x, y) : paint;
        const p = i * 3;
        px[p] += (color[0] - px[p]) * a;
        px[p + 1] += (color[1] - px[p + 1]) * a;
        px[p + 2] += (color[2] - px[p + 2]) * a;
      }
    }
    this.box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  }
}

const between = (random: Random, lo: number, hi: number) => lo + (hi - lo) * random();

const CONTROL_INK: Rgb = [31, 58, 95];
const CONTROL_PAPER: Rgb = [244, 247, 251];

function darkColour(random: Random): Rgb {
  // One channel may rise to mid-tones for variety of hue; the sum stays dark enough to read.
  const c: [number, number, number] = [between(random, 10, 90), between(random, 10, 90), between(random, 10, 90)];
  c[Math.floor(random() * 3)] = between(random, 40, 130);
  return c;
}

/** Two dark colours blended along a random direction. */
class Ink {
  private readonly from: Rgb;
  private readonly to: Rgb;
  private readonly dx: number;
  private readonly dy: number;
  private readonly c: number;

  constructor(random: Random, w: number, h: number) {
    this.from = darkColour(random);
    this.to = darkColour(random);
    const a = random() * 2 * Math.PI;
    // Scaled so the blend runs from 0 to 1 across the picture in that direction.
    const reach = Math.abs(Math.cos(a)) * w + Math.abs(Math.sin(a)) * h;
    this.dx = Math.cos(a) / reach;
    this.dy = Math.sin(a) / reach;
    this.c = 0.5 - (this.dx * w + this.dy * h) / 2;
  }

  at(x: number, y: number): Rgb {
    const t = x * this.dx + y * this.dy + this.c;
    const { from: f, to } = this;
    return [f[0] + (to[0] - f[0]) * t, f[1] + (to[1] - f[1]) * t, f[2] + (to[2] - f[2]) * t];
  }
}

function paper(cv: Canvas, random: Random): void {
  const base: Rgb = [between(random, 225, 250), between(random, 225, 250), between(random, 225, 250)];
  const gx = between(random, -18, 18);
  const gy = between(random, -18, 18);
  // Two low-frequency waves mottle the background (unequally per channel) so its level is not one threshold.
  const waves = [0, 1].map(() => ({ fx: between(random, 0.02, 0.09), fy: between(random, 0.03, 0.12), ph: random() * 6.28, amp: between(random, 5, 12) }));
  const { w, h, px } = cv;
  // sin(a + b) = sin a cos b + cos a sin b: per-column and per-row tables instead of a sine per pixel.
  const tab = waves.map((wv) => ({
    sx: Float32Array.from({ length: w }, (_, x) => wv.amp * Math.sin(wv.fx * x + wv.ph)),
    cx: Float32Array.from({ length: w }, (_, x) => wv.amp * Math.cos(wv.fx * x + wv.ph)),
    sy: Float32Array.from({ length: h }, (_, y) => Math.sin(wv.fy * y)),
    cy: Float32Array.from({ length: h }, (_, y) => Math.cos(wv.fy * y)),
  }));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = (gx * x) / w + (gy * y) / h;
      for (const t of tab) v += t.sx[x] * t.cy[y] + t.cx[x] * t.sy[y];
      const p = (y * w + x) * 3;
      px[p] = base[0] + v;
      px[p + 1] = base[1] + v * 0.8;
      px[p + 2] = base[2] + v * 0.6;
    }
  }
  // Pale blobs of other tints.
  for (let n = 0; n < 5; n++) {
    const cx = random() * w;
    const cy = random() * h;
    const r = between(random, h * 0.2, h * 0.5);
    const tint: Rgb = [between(random, 190, 245), between(random, 190, 245), between(random, 190, 245)];
    cv.segment([cx, cy], [cx + between(random, -r, r), cy], r);
    cv.fill(tint, 0.35);
  }
}

/** A glyph's strokes mapped to pixels: centred at (cx, cy), scaled, sheared, rotated. */
function place(strokes: readonly Stroke[], unit: number, cx: number, cy: number, sx: number, sy: number, shear: number, angle: number): Pt[][] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return strokes.map((s) =>
    s.map(([gx, gy]) => {
      const v = (gy - GLYPH_H / 2) * unit * sy;
      const u = (gx - GLYPH_W / 2) * unit * sx + shear * v;
      return [cx + cos * u - sin * v, cy + sin * u + cos * v] as Pt;
    }),
  );
}

function curve(w: number, y0: number, y1: number, amp: number, period: number, phase: number): Pt[] {
  const pts: Pt[] = [];
  const step = Math.min(6, period / 8);
  for (let x = -4; x <= w + 4; x += step) pts.push([x, y0 + ((y1 - y0) * x) / w + amp * Math.sin((x / period) * 2 * Math.PI + phase)]);
  return pts;
}

/** Inverse-mapped sine displacement with bilinear sampling: every output pixel reads from a moved point. */
function warp(cv: Canvas, random: Random): void {
  const { w, h } = cv;
  const src = cv.px.slice();
  const ax = between(random, 1.6, 2.6) * (h / 60);
  const ay = between(random, 2.0, 3.2) * (h / 60);
  const px1 = between(random, 0.6, 1.1) * h;
  const py1 = between(random, 0.8, 1.4) * h;
  const p1 = random() * 6.28;
  const p2 = random() * 6.28;
  const out = cv.px;
  const dys = Float32Array.from({ length: w }, (_, x) => ay * Math.sin((x / py1) * 6.283 + p2));
  for (let y = 0; y < h; y++) {
    const dx = ax * Math.sin((y / px1) * 6.283 + p1);
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1.001, Math.max(0, x + dx));
      const sy = Math.min(h - 1.001, Math.max(0, y + dys[x]));
      const ix = Math.floor(sx);
      const iy = Math.floor(sy);
      const fx = sx - ix;
      const fy = sy - iy;
      const a = (iy * w + ix) * 3;
      const b = a + 3;
      const c = a + w * 3;
      const d = c + 3;
      const o = (y * w + x) * 3;
      for (let k = 0; k < 3; k++) {
        const top = src[a + k] + (src[b + k] - src[a + k]) * fx;
        const bot = src[c + k] + (src[d + k] - src[c + k]) * fx;
        out[o + k] = top + (bot - top) * fy;
      }
    }
  }
}

function speckle(cv: Canvas, random: Random): void {
  const { w, h, px } = cv;
  const count = Math.round(w * h * 0.035);
  for (let n = 0; n < count; n++) {
    const x = Math.floor(random() * w);
    const y = Math.floor(random() * h);
    const dark = random() < 0.5;
    const v = dark ? between(random, 40, 150) : between(random, 200, 255);
    const a = between(random, 0.35, 0.9);
    const size = random() < 0.2 ? 2 : 1;
    for (let yy = y; yy < Math.min(h, y + size); yy++) {
      for (let xx = x; xx < Math.min(w, x + size); xx++) {
        const p = (yy * w + xx) * 3;
        for (let k = 0; k < 3; k++) px[p + k] += (v + between(random, -30, 30) - px[p + k]) * a;
      }
    }
  }
}

function drawCaptcha(text: string, opts: DrawOptions): Raster {
  const { random, distort = true, noise = distort, width = PICTURE_W, height = PICTURE_H } = opts;
  const cv = new Canvas(width, height);
  const unit = (height * 0.62) / GLYPH_H;
  const glyphW = GLYPH_W * unit;
  const baseHw = unit * 0.7;
  const mid = height / 2;
  const ink = new Ink(random, width, height);

  if (noise) {
    paper(cv, random);
    // Thin lines under the text.
    for (let n = 0; n < 2; n++) {
      cv.polyline(curve(width, random() * height, random() * height, between(random, 2, 8), between(random, 40, 120), random() * 6.28), between(random, 0.4, 0.8));
      cv.fill(darkColour(random), between(random, 0.3, 0.6));
    }
  } else {
    for (let i = 0; i < cv.px.length; i += 3) cv.px.set(CONTROL_PAPER, i);
  }

  if (distort) {
    const specs = [...text].map((ch) => {
      const s = between(random, 0.92, 1.08);
      return {
        ch,
        sx: s * between(random, 1.05, 1.3),
        sy: s * between(random, 0.92, 1.08),
        shear: between(random, -0.2, 0.2),
        angle: between(random, -0.25, 0.25),
        hw: baseHw * between(random, 0.85, 1.15),
        // A little over a glyph's width: with stroke, turn and shear, neighbours still touch.
        advance: glyphW * between(random, 1.04, 1.14),
      };
    });
    const step = (i: number) => (specs[i].advance * (specs[i - 1].sx + specs[i].sx)) / 2;
    const span = specs.reduce((sum, _s, i) => sum + (i ? step(i) : 0), 0);
    let x = (width - span) / 2 + between(random, -0.04, 0.04) * width;
    specs.forEach((s, i) => {
      if (i) x += step(i);
      const y = mid + between(random, -0.06, 0.06) * height;
      for (const st of place(GLYPHS[s.ch], unit, x, y, s.sx, s.sy, s.shear, s.angle)) cv.polyline(st, s.hw);
      cv.fill(ink);
    });
  } else {
    // Whole-pixel steps, so a character's pixels are the same wherever it stands.
    const step = Math.ceil(glyphW + 2 * baseHw + 6);
    const left = Math.floor((width - step * text.length) / 2);
    [...text].forEach((ch, i) => {
      for (const st of place(GLYPHS[ch], unit, left + i * step + step / 2, Math.round(mid), 1, 1, 0, 0)) cv.polyline(st, baseHw);
      cv.fill(CONTROL_INK);
    });
  }

  if (noise) {
    // One strike-through in the text's ink, as thick as its strokes, so that a morphological
    // opening which wipes hairlines and speckle keeps it too, and every column holds ink. It
    // slants across the text band, so it rarely runs along crossbars; a reader tells it from a
    // stroke by its gentle wave and its running edge to edge.
    const y0 = mid + between(random, -0.25, 0.25) * height;
    const y1 = mid + between(random, -0.25, 0.25) * height;
    cv.polyline(curve(width, y0, y1, between(random, 2, 4) * (height / 60), between(random, 40, 70) * (height / 60), random() * 6.28), baseHw * between(random, 0.8, 1.0));
    cv.fill(ink);
  }
  if (distort) warp(cv, random);
  if (noise) speckle(cv, random);
  return { width, height, rgb: toBytes(cv.px) };
}

function toBytes(px: Float32Array): Uint8Array {
  const out = new Uint8Array(px.length);
  for (let i = 0; i < px.length; i++) out[i] = px[i] < 0 ? 0 : px[i] > 255 ? 255 : Math.round(px[i]);
  return out;
}

export function captchaPng(text: string, opts: DrawOptions): Buffer {
  const r = drawCaptcha(text, opts);
  return encodePng(r.rgb, r.width, r.height);
}
