import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALPHABET, GLYPHS } from './font.js';
import { captchaPng, CODE_LENGTH, cryptoRandom, pickCode, PICTURE_H, PICTURE_W, type Random } from './picture.js';
import { readPng, type DecodedPng } from './png-reader.fixture.js';
import { prng } from '../../../demo/history.js';

/** A seeded generator, so the attack's figures are the same on every run. */
const seeded = (seed: number): Random => prng(seed);

/*
 * The attack that broke svg-captcha, moved to pixels. Offline, the attacker renders every
 * character alone with our own generator many times and keeps (a) the exact pixels of each
 * rendering, hashed, and (b) the average of its ink on a small grid as a template. Online, it
 * thresholds the picture, optionally cleans it with a 3 x 3 morphological opening (which wipes
 * speckle and hairlines thinner than the text), cuts it into characters by columns of ink (equal
 * slices of the inked span when the columns do not give one run per character), and names each
 * cut by hash, or by the template it correlates with best. Both cleanings are tried and the
 * better one counts, which is kinder to the attacker than its one try per code.
 */

const INK = 140;
const TW = 12;
const TH = 16;

type Box = { x0: number; x1: number; y0: number; y1: number };

function inkOf(img: DecodedPng, cleaned: boolean): Uint8Array {
  const m = new Uint8Array(img.width * img.height);
  for (let i = 0; i < m.length; i++) m[i] = 0.299 * img.rgb[i * 3] + 0.587 * img.rgb[i * 3 + 1] + 0.114 * img.rgb[i * 3 + 2] < INK ? 1 : 0;
  return cleaned ? spread(spread(m, img, 0), img, 1) : m;
}

/** Erosion (`to` 0: a pixel stays ink only if its 3 x 3 neighbourhood is) or dilation (`to` 1). */
function spread(m: Uint8Array, { width: w, height: h }: DecodedPng, to: 0 | 1): Uint8Array {
  const out = new Uint8Array(m.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let hit = false;
      for (let dy = -1; dy <= 1 && !hit; dy++) {
        for (let dx = -1; dx <= 1 && !hit; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          const v = xx < 0 || yy < 0 || xx >= w || yy >= h ? 0 : m[yy * w + xx];
          hit = v === to;
        }
      }
      out[y * w + x] = hit ? to : 1 - to;
    }
  }
  return out;
}

/** Column runs holding ink (three pixels or more, so specks and hairlines do not count). */
function cut(img: DecodedPng, ink: Uint8Array, n: number): Array<[number, number]> {
  const { width: w, height: h } = img;
  const inked: boolean[] = [];
  for (let x = 0; x < w; x++) {
    let c = 0;
    for (let y = 0; y < h; y++) c += ink[y * w + x];
    inked.push(c >= 3);
  }
  const runs: Array<[number, number]> = [];
  for (let x = 0; x < w; x++) {
    if (!inked[x]) continue;
    const start = x;
    while (x + 1 < w && inked[x + 1]) x++;
    runs.push([start, x]);
  }
  if (runs.length === n || !runs.length) return runs;
  const first = runs[0][0];
  const span = runs.at(-1)![1] + 1 - first;
  return Array.from({ length: n }, (_, i) => [first + Math.floor((span * i) / n), first + Math.floor((span * (i + 1)) / n) - 1] as [number, number]);
}

function boxOf(img: DecodedPng, ink: Uint8Array, [x0, x1]: [number, number]): Box {
  let y0 = img.height;
  let y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = x0; x <= x1; x++) {
      if (ink[y * img.width + x]) {
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    }
  }
  return y1 < 0 ? { x0, x1, y0: 0, y1: img.height - 1 } : { x0, x1, y0, y1 };
}

function hashOf(img: DecodedPng, b: Box): string {
  const h = createHash('sha1').update(`${b.x1 - b.x0}x${b.y1 - b.y0}`);
  for (let y = b.y0; y <= b.y1; y++) h.update(img.rgb.subarray((y * img.width + b.x0) * 3, (y * img.width + b.x1 + 1) * 3));
  return h.digest('hex');
}

/** Share of ink in each cell of a TW x TH grid laid over the box. */
function gridOf(img: DecodedPng, ink: Uint8Array, b: Box): Float64Array {
  const sum = new Float64Array(TW * TH);
  const cnt = new Float64Array(TW * TH);
  const bw = b.x1 - b.x0 + 1;
  const bh = b.y1 - b.y0 + 1;
  for (let y = b.y0; y <= b.y1; y++) {
    for (let x = b.x0; x <= b.x1; x++) {
      const cell = Math.floor(((y - b.y0) * TH) / bh) * TW + Math.floor(((x - b.x0) * TW) / bw);
      sum[cell] += ink[y * img.width + x];
      cnt[cell]++;
    }
  }
  return sum.map((s, i) => (cnt[i] ? s / cnt[i] : 0));
}

function correlation(a: Float64Array, b: Float64Array): number {
  const ma = a.reduce((s, v) => s + v, 0) / a.length;
  const mb = b.reduce((s, v) => s + v, 0) / b.length;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) ** 2;
    bb += (b[i] - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb || 1);
}

interface Dictionary {
  hashes: Map<string, string>;
  templates: Map<string, Float64Array>;
}
const CLEANINGS = [false, true];

/** The offline phase: each character alone, on clean paper (the attacker's best case), `samples` times. */
function buildDictionaries(distort: boolean, samples: number, random: Random): Dictionary[] {
  const dicts = CLEANINGS.map(() => ({ hashes: new Map<string, string>(), templates: new Map<string, Float64Array>() }));
  for (const ch of ALPHABET) {
    const avg = CLEANINGS.map(() => new Float64Array(TW * TH));
    for (let k = 0; k < samples; k++) {
      const img = readPng(captchaPng(ch, { random, distort, noise: false }));
      CLEANINGS.forEach((cleaned, v) => {
        const ink = inkOf(img, cleaned);
        const runs = cut(img, ink, 1);
        if (!runs.length) return;
        const box = boxOf(img, ink, [runs[0][0], runs.at(-1)![1]]);
        dicts[v].hashes.set(hashOf(img, box), ch);
        gridOf(img, ink, box).forEach((x, i) => (avg[v][i] += x / samples));
      });
    }
    CLEANINGS.forEach((_, v) => dicts[v].templates.set(ch, avg[v]));
  }
  return dicts;
}

function attack(img: DecodedPng, cleaned: boolean, dict: Dictionary): { byHash: string; byTemplate: string } {
  const ink = inkOf(img, cleaned);
  let byHash = '';
  let byTemplate = '';
  for (const seg of cut(img, ink, CODE_LENGTH)) {
    const box = boxOf(img, ink, seg);
    byHash += dict.hashes.get(hashOf(img, box)) ?? '?';
    const grid = gridOf(img, ink, box);
    let best = ['?', -Infinity] as [string, number];
    for (const [ch, t] of dict.templates) {
      const r = correlation(grid, t);
      if (r > best[1]) best = [ch, r];
    }
    byTemplate += best[0];
  }
  return { byHash, byTemplate };
}

/** Shares of `count` codes solved by hash and by template, under each cleaning. */
function solvedShares(distort: boolean, dicts: Dictionary[], count: number, random: Random) {
  const solved = CLEANINGS.map(() => ({ hash: 0, template: 0 }));
  for (let i = 0; i < count; i++) {
    const code = pickCode(random);
    const img = readPng(captchaPng(code, { random, distort }));
    CLEANINGS.forEach((cleaned, v) => {
      const guess = attack(img, cleaned, dicts[v]);
      if (guess.byHash === code) solved[v].hash += 1 / count;
      if (guess.byTemplate === code) solved[v].template += 1 / count;
    });
  }
  return { plain: solved[0], cleaned: solved[1] };
}

describe('captcha picture', () => {
  it('draws only characters nobody confuses, each with a glyph', () => {
    expect(ALPHABET).not.toMatch(/[0OoQ1Ili]/);
    for (const pair of ['2Z', '5S', '8B', '6G', 'UV', 'QD']) expect([...pair].filter((c) => ALPHABET.includes(c)).length).toBeLessThanOrEqual(1);
    for (const ch of ALPHABET) expect(GLYPHS[ch]?.length).toBeGreaterThan(0);
    const random = seeded(7);
    for (let i = 0; i < 200; i++) expect(pickCode(random)).toMatch(new RegExp(`^[${ALPHABET}]{${CODE_LENGTH}}$`));
  });

  it('is a valid PNG of the announced size', () => {
    const png = readPng(captchaPng('ACDE', { random: cryptoRandom() }));
    expect(png).toMatchObject({ width: PICTURE_W, height: PICTURE_H, bitDepth: 8, colourType: 2, chunks: ['IHDR', 'IDAT', 'IEND'] });
    expect(png.rgb.length).toBe(PICTURE_W * PICTURE_H * 3);
  });

  it('draws the same text differently on every request', () => {
    const random = cryptoRandom();
    const [a, b] = [captchaPng('HK7P', { random }), captchaPng('HK7P', { random })];
    expect(a.equals(b)).toBe(false);
    const [pa, pb] = [readPng(a).rgb, readPng(b).rgb];
    let differ = 0;
    for (let i = 0; i < pa.length; i += 3) if (Math.abs(pa[i] - pb[i]) + Math.abs(pa[i + 1] - pb[i + 1]) + Math.abs(pa[i + 2] - pb[i + 2]) > 30) differ++;
    expect(differ / (pa.length / 3)).toBeGreaterThan(0.3);
  });

  it('the dictionary attack solves an undistorted control picture', () => {
    const shares = solvedShares(false, buildDictionaries(false, 3, seeded(1)), 50, seeded(2));
    expect(shares.plain.hash).toBeGreaterThanOrEqual(0.9);
    expect(shares.plain.template).toBeGreaterThanOrEqual(0.9);
    expect(shares.cleaned.template).toBeGreaterThanOrEqual(0.9);
  });

  // Some thousand pictures drawn and read back: a few seconds, more on a busy machine.
  it('the same attack, its dictionary built from our own generator, solves (nearly) none of the real pictures', { timeout: 120_000 }, () => {
    const shares = solvedShares(true, buildDictionaries(true, 40, seeded(3)), 50, seeded(4));
    expect(shares.plain.hash + shares.cleaned.hash).toBe(0);
    expect(Math.max(shares.plain.template, shares.cleaned.template)).toBeLessThan(0.1);
  });
});
