import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReadAgain } from './readAgain';

describe('ReadAgain', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads at once, then once at the end of the gap for every ask within it', () => {
    const read = vi.fn();
    const r = new ReadAgain(10_000, read);
    r.ask();
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    r.ask();
    r.ask();
    r.ask();
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(8_999);
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads at once again once a gap has passed without an ask', () => {
    const read = vi.fn();
    const r = new ReadAgain(10_000, read);
    r.ask();
    vi.advanceTimersByTime(10_000);
    r.ask();
    expect(read).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(60_000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads nothing more once stopped', () => {
    const read = vi.fn();
    const r = new ReadAgain(10_000, read);
    r.ask();
    r.ask();
    r.stop();
    vi.advanceTimersByTime(60_000);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
