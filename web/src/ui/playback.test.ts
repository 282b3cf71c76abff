import { describe, expect, it } from 'vitest';
import { advance, FRAME_MS, PLAY_SECONDS, pointAt, stepOf } from './playback';

describe('playback (spec §9 speed grades 1 to 5)', () => {
  const span: [number, number] = [0, 600_000];

  it('plays the period in PLAY_SECONDS at grade 1, each grade twice as fast', () => {
    const frames = (PLAY_SECONDS * 1000) / FRAME_MS;
    expect(stepOf(span, 1) * frames).toBe(600_000);
    expect(stepOf(span, 3)).toBe(4 * stepOf(span, 1));
    expect(stepOf(span, 5)).toBe(16 * stepOf(span, 1));
  });

  it('stops at the end of the period', () => {
    expect(advance(0, span, 1)).toEqual({ cursor: 1000, done: false });
    expect(advance(599_500, span, 5)).toEqual({ cursor: 600_000, done: true });
  });

  it('shows the latest point at or before the moment, none before the first', () => {
    const points = [{ ts: 10 }, { ts: 20 }, { ts: 30 }];
    expect(pointAt(points, 25)).toEqual({ ts: 20 });
    expect(pointAt(points, 30)).toEqual({ ts: 30 });
    expect(pointAt(points, 5)).toBeUndefined();
  });
});
