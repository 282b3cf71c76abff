/*
 * A stroke font of our own for the picture code: each glyph is a few polylines on a 10 x 14 box
 * (y down), drawn later as thick anti-aliased strokes. No font file is read, so nothing outside
 * this file decides what a character looks like, and the shapes are only ever seen after random
 * distortion.
 *
 * The alphabet leaves out every character a person could take for another once it is bent:
 * no 0/O/Q, no 1/I/l, and of 2/Z, 5/S, 8/B, 6/G and U/V at most one each. The answer is compared
 * case-insensitively, so only capitals are drawn.
 */

export type Pt = readonly [number, number];
export type Stroke = readonly Pt[];

export const GLYPH_W = 10;
export const GLYPH_H = 14;

/** Points along an elliptical arc; angles in degrees, counter-clockwise as seen (y grows down). */
function arc(cx: number, cy: number, rx: number, ry: number, from: number, to: number): Pt[] {
  const steps = Math.max(3, Math.ceil(Math.abs(to - from) / 20));
  const pts: Pt[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    pts.push([cx + rx * Math.cos(a), cy - ry * Math.sin(a)]);
  }
  return pts;
}

const turn = (s: Stroke): Stroke => s.map(([x, y]) => [GLYPH_W - x, GLYPH_H - y] as Pt);

const SIX: Stroke[] = [arc(5.5, 7.5, 4.8, 7.5, 70, 200), arc(5, 10, 4.6, 4, 0, 360)];

export const GLYPHS: Readonly<Record<string, readonly Stroke[]>> = {
  A: [[[0, 14], [5, 0], [10, 14]], [[2.2, 9], [7.8, 9]]],
  C: [arc(5.5, 7, 5, 7, 45, 315)],
  D: [[[0, 14], [0, 0], [4, 0], ...arc(4, 7, 6, 7, 90, -90), [0, 14]]],
  E: [[[10, 0], [0, 0], [0, 14], [10, 14]], [[0, 7], [7, 7]]],
  F: [[[10, 0], [0, 0], [0, 14]], [[0, 7], [7, 7]]],
  H: [[[0, 0], [0, 14]], [[10, 0], [10, 14]], [[0, 7], [10, 7]]],
  J: [[[4, 0], [9, 0]], [[8, 0], [8, 10], ...arc(4.5, 10, 3.5, 4, 0, -180)]],
  K: [[[0, 0], [0, 14]], [[10, 0], [0, 9]], [[3, 6.5], [10, 14]]],
  L: [[[0, 0], [0, 14], [9, 14]]],
  M: [[[0, 14], [0, 0], [5, 9], [10, 0], [10, 14]]],
  N: [[[0, 14], [0, 0], [10, 14], [10, 0]]],
  P: [[[0, 14], [0, 0], [6, 0], ...arc(6, 4, 4, 4, 90, -90), [0, 8]]],
  R: [[[0, 14], [0, 0], [6, 0], ...arc(6, 4, 4, 4, 90, -90), [0, 8]], [[5, 8], [10, 14]]],
  T: [[[0, 0], [10, 0]], [[5, 0], [5, 14]]],
  U: [[[0, 0], [0, 9], ...arc(5, 9, 5, 5, 180, 360), [10, 0]]],
  W: [[[0, 0], [2.5, 14], [5, 5], [7.5, 14], [10, 0]]],
  X: [[[0, 0], [10, 14]], [[10, 0], [0, 14]]],
  Y: [[[0, 0], [5, 7], [10, 0]], [[5, 7], [5, 14]]],
  '3': [arc(5, 3.5, 4.5, 3.5, 150, -90), arc(5, 10.5, 5, 3.5, 90, -150)],
  '4': [[[6, 0], [0, 9.5], [10, 9.5]], [[7.5, 4.5], [7.5, 14]]],
  '6': SIX,
  '7': [[[0, 0], [10, 0], [4, 14]]],
  '9': SIX.map(turn),
};

export const ALPHABET = Object.keys(GLYPHS).join('');
