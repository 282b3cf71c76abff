/**
 * A read that live events ask for again, at most once per gap. Every exception of the caller's
 * scope reaches the stream (100–500 a minute at 100,000 sensors) and each read of the board's
 * counts, or of a page sorted or filtered by state, is a scan of every carrier on the server
 * (~0.4–0.6 s of its CPU and tens of MB of garbage at that size, docs/performance.md "Memory"):
 * one read per exception made two open boards the console's largest source of garbage. The
 * first ask reads at once; asks within the gap make one read at its end, so the last change is
 * never left to the periodic refresh.
 */
export class ReadAgain {
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly gapMs: number,
    private readonly read: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  ask() {
    if (this.timer !== undefined) return;
    const wait = this.last + this.gapMs - this.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire() {
    this.timer = undefined;
    this.last = this.now();
    this.read();
  }
}
