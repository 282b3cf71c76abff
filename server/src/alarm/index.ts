import { evaluateSensor } from './evaluator.js';
import { dequeueQuiet, hotWaiting, nextWindows, type QueuedWindow } from './quiet.js';
import { createNotifier } from './notifier.js';
import type { Config } from '../config.js';
import type { Db } from '../platform/db/client.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { isConnectionError, reportFailure, type FailureLog } from '../platform/db/outage.js';
import { REMOTE, type Bus, type Origin } from '../platform/events.js';

export interface AlarmOptions {
  /** Fallback poll of both queues; the bus wakes the evaluator at once. Default 1 s. */
  pollMs?: number;
  /** Clock of the notifier's retry schedule; tests move it instead of sleeping. */
  now?: () => number;
  /**
   * false: the notifier does not poll on its own; new notices still go out at once (the
   * evaluator wakes it) and due retries are swept by the `notice-retry` job (jobs/index.ts).
   */
  noticePoll?: boolean;
}

export interface Alarm {
  /** Stops polling, waits for the pass in flight, closes the SMTP transport. */
  stop(): Promise<void>;
  /** Processes everything queued now: every alarm_queue row, then every notice due, to its outcome. */
  drain(): Promise<void>;
  /** Sends every notice due now (first tries and retries). */
  sweepNotices(): Promise<void>;
}

/** The part of a logger the alarm uses: pino's (Fastify's) object-first call, which console also accepts. */
export interface AlarmLog extends FailureLog {
  warn(obj: object, msg?: string): void;
}
type Log = AlarmLog;

/** What the alarm is built from (AppDeps has it all). */
export interface AlarmDeps {
  config: Config;
  db: Db;
  bus: Bus;
  log?: AlarmLog;
  metrics?: Metrics;
}

/**
 * A worker loop: runs `pass` until it reports no work. A kick while a pass runs asks for one
 * more round instead of a second concurrent one, so bursts of bus events cost one loop.
 */
class Loop {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<number>,
    private readonly log: Log,
  ) {}

  start(pollMs: number | false) {
    if (pollMs !== false) {
      this.timer = setInterval(() => void this.kick(), pollMs);
      this.timer.unref();
    }
    void this.kick();
  }

  kick(): Promise<void> {
    if (this.stopped) return this.running ?? Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.pass()) > 0);
        } while (this.again && !this.stopped);
      } catch (err) {
        // The database went away or similar: the next poll tries again; nothing is lost
        // because both queues are tables.
        reportFailure(this.log, err, {}, `alarm ${this.name} pass failed`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}

const ALARM_LATENCY = 'coldwatch_alarm_latency_seconds';
/** Evaluations in flight at once on PostgreSQL. */
const EVAL_CONCURRENCY = 4;


/**
 * Alarm evaluation and e-mail notification. Both work off tables (alarm_queue, notice_log),
 * so a restart resumes where the last process stopped and several replicas share the work.
 */
export function startAlarm(deps: AlarmDeps, opts: AlarmOptions = {}): Alarm {
  const { db, bus, config } = deps;
  const log: Log = deps.log ?? console;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? 1000;
  /** A sensor whose evaluation failed waits a little before the next try, so a poison row cannot spin the loop. */
  const retryAt = new Map<number, number>();

  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  const notifier = createNotifier(db, config, {
    now,
    log,
    metrics: deps.metrics,
    wake(delayMs) {
      if (stopping) return;
      if (delayMs <= 0) return void notices.kick();
      // A quick retry (seconds) goes out on its own timer rather than at the notice-retry job's
      // next sweep. Only on the real clock: a test that moves the clock drains when it wants.
      if (opts.now) return;
      const t = setTimeout(() => {
        timers.delete(t);
        void notices.kick();
      }, delayMs + 50);
      t.unref();
      timers.add(t);
    },
  });
  const notices = new Loop('notifier', () => notifier.pass(), log);
  /** Every notice due now, to its outcome: passes until one starts nothing and nothing is in flight. */
  const settleNotices = async () => {
    for (;;) {
      await notices.kick();
      if (!notifier.busy()) return;
      await notifier.idle();
    }
  };

  /** Full evaluation of one window; 1 if it made progress. */
  const evaluateOne = async ({ sensor_id: id, queued_at: queuedAt }: QueuedWindow): Promise<number> => {
    if ((retryAt.get(id) ?? 0) > Date.now()) return 0;
    try {
      const out = await db.tx((q) => evaluateSensor(q, id));
      retryAt.delete(id);
      if (!out) return 0;
      for (const e of out.events) bus.emit('exception', e);
      // From the commit of the readings that queued the sensor to the commit of the exception.
      if (out.opened) deps.metrics?.observe(ALARM_LATENCY, 'Reading committed to exception committed', {}, (Date.now() - queuedAt.getTime()) / 1000);
      if (out.notices > 0) void notices.kick();
      // Re-evaluating a widened row is progress too: it will be dequeued next round.
      return 1;
    } catch (err) {
      // The database away: the whole pass fails (once) and the queue waits in its table.
      if (isConnectionError(err)) throw err;
      retryAt.set(id, Date.now() + 10_000);
      log.error({ err, sensorId: id }, 'alarm evaluation failed');
      return 0;
    }
  };

  /**
   * Windows are evaluated a few at a time on PostgreSQL (as replicas do: the per-sensor advisory
   * lock keeps two evaluations of one sensor apart); one at a time on PGlite, one connection.
   */
  const width = db.kind === 'postgres' ? EVAL_CONCURRENCY : 1;
  const evaluateAll = async (rows: QueuedWindow[]) => (await Promise.all(rows.map((r) => evaluateOne(r)))).reduce((a, b) => a + b, 0);

  const evaluate = async (): Promise<number> => {
    const queued = await nextWindows(db, config.alarmBackfillHoldMs);
    let done = 0;
    // A hot window (a reading outside its zone) may open an exception: evaluated first, in full.
    const hot = queued.filter((r) => r.hot);
    for (let i = 0; i < hot.length; i += width) done += await evaluateAll(hot.slice(i, i + width));
    // One statement dequeues every other window with nothing to evaluate (quiet.ts); the loud
    // ones get the full evaluation, until a window turns hot meanwhile: the next pass takes it
    // first, so an alarm waits for a few evaluations, not for a backlog of them.
    const rest = queued.filter((r) => !r.hot);
    const judged = await dequeueQuiet(db, rest.map((r) => r.sensor_id));
    done += judged.quiet.size;
    const loud = rest.filter((r) => judged.loud.has(r.sensor_id));
    for (let i = 0; i < loud.length; i += width) {
      done += await evaluateAll(loud.slice(i, i + width));
      if (await hotWaiting(db, config.alarmBackfillHoldMs)) break;
    }
    return done;
  };
  const evaluator = new Loop('evaluator', evaluate, log);

  // Another replica's readings are that replica's to evaluate (the queue is shared, so nothing waits on us).
  const onReading = (_r: unknown, origin?: Origin) => void (origin !== REMOTE && evaluator.kick());
  bus.on('reading', onReading);
  evaluator.start(pollMs);
  notices.start(opts.noticePoll === false ? false : pollMs);

  return {
    sweepNotices: () => notices.kick(),
    async drain() {
      await evaluator.kick();
      await settleNotices();
    },
    async stop() {
      bus.off('reading', onReading);
      stopping = true;
      for (const t of timers) clearTimeout(t);
      await evaluator.stop();
      await notices.stop();
      await notifier.idle();
      notifier.close();
    },
  };
}
