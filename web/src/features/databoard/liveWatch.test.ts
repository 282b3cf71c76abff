import { describe, expect, it } from 'vitest';
import { streamUrl } from './useLiveStream';

describe("the live stream's address for its subscribers", () => {
  it('asks for every sensor while any subscriber wants them all', () => {
    expect(streamUrl([{ watch: [3, 1] }, {}])).toBe('/service/live/stream');
    expect(streamUrl([])).toBe('/service/live/stream?sensors=');
  });
  it("asks for the union of the watched sensors, in order, once each; exceptions-only subscribers add none", () => {
    expect(streamUrl([{ watch: [5, 2] }, { watch: [] }, { watch: [2, 9] }])).toBe('/service/live/stream?sensors=2,5,9');
    expect(streamUrl([{ watch: [] }])).toBe('/service/live/stream?sensors=');
  });
});
