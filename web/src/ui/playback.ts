/**
 * Playback of a period (spec §9: speed grades 1 to 5, normal, fast, faster, extreme, fastest),
 * as pure steps the component runs on a timer; history and transport playback share them.
 * At grade 1 a period plays in PLAY_SECONDS; each grade doubles the pace.
 */
export const PLAYBACK_GRADES = [1, 2, 3, 4, 5] as const;
export type PlaybackGrade = (typeof PLAYBACK_GRADES)[number];
/** The catalogue key of each grade's name (common:playback.speed.*). */
export const GRADE_NAMES: Record<PlaybackGrade, string> = { 1: 'normal', 2: 'fast', 3: 'faster', 4: 'extreme', 5: 'fastest' };

/** How long the whole period plays at grade 1. */
export const PLAY_SECONDS = 60;
/** A frame every this many milliseconds. */
export const FRAME_MS = 100;

/** How far the cursor moves in one frame at a grade. */
export const stepOf = (span: [number, number], grade: PlaybackGrade) => ((span[1] - span[0]) / ((PLAY_SECONDS * 1000) / FRAME_MS)) * 2 ** (grade - 1);

/** The cursor after one frame, and whether the period is over (the cursor stays at its end). */
export function advance(cursor: number, span: [number, number], grade: PlaybackGrade): { cursor: number; done: boolean } {
  const next = Math.min(span[1], cursor + stepOf(span, grade));
  return { cursor: next, done: next >= span[1] };
}

/** The latest of `points` at or before the cursor (points in time order): what the period shows at that moment. */
export function pointAt<P extends { ts: number }>(points: readonly P[], cursor: number): P | undefined {
  let lo = 0;
  let hi = points.length - 1;
  let found: P | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].ts <= cursor) {
      found = points[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
