import type { AppDeps } from '../deps.js';
import { evaluateSensor } from './evaluator.js';
import { dequeueQuiet } from './quiet.js';
import { createNotifier } from './notifier.js';
import { isConnectionError, reportFailure, type FailureLog } from '../platform/db/outage.js';
import { REMOTE, type Origin } from '../platform/events.js';

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
  /** Processes everything queued now: every alarm_queue row, then every notice due. */
  drain(): Promise<void>;
  /** Sends every notice due now (first tries and retries). */
  sweepNotices(): Promise<void>;
}

/** The part of a logger the alarm uses: pino's (Fastify's) object-first call, which console also accepts. */
export interface AlarmLog extends FailureLog {
  warn(obj: object, msg?: string): void;
}
type Log = AlarmLog;

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

/**
 * Alarm evaluation and e-mail notification. Both work off tables (alarm_queue, notice_log),
 * so a restart resumes where the last process stopped and several replicas share the work.
 */
export function startAlarm(deps: AppDeps, opts: AlarmOptions = {}): Alarm {
  const { db, bus, config } = deps;
  const log: Log = (deps.log as AlarmLog | undefined) ?? console;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? 1000;
  /** A sensor whose evaluation failed waits a little before the next try, so a poison row cannot spin the loop. */
  const retryAt = new Map<number, number>();

  const notifier = createNotifier(db, config, { now, log, metrics: deps.metrics });
  const notices = new Loop('notifier', () => notifier.pass(), log);

  const evaluate = async (): Promise<number> => {
    const queued = await db.query<{ sensor_id: number; queued_at: Date }>('SELECT sensor_id, queued_at FROM alarm_queue ORDER BY queued_at LIMIT 200');
    // One statement dequeues every window with nothing to evaluate (quiet.ts); the rest get the full evaluation.
    const quiet = await dequeueQuiet(db, queued.map((r) => r.sensor_id));
    let done = quiet.size;
    for (const { sensor_id: id, queued_at: queuedAt } of queued) {
      if (quiet.has(id) || (retryAt.get(id) ?? 0) > Date.now()) continue;
      try {
        const out = await db.tx((q) => evaluateSensor(q, id));
        retryAt.delete(id);
        if (!out) continue;
        // Re-evaluating a widened row is progress too: it will be dequeued next round.
        done++;
        for (const e of out.events) bus.emit('exception', e);
        // From the commit of the readings that queued the sensor to the commit of the exception.
        if (out.opened) deps.metrics?.observe(ALARM_LATENCY, 'Reading committed to exception committed', {}, (Date.now() - queuedAt.getTime()) / 1000);
        if (out.notices > 0) void notices.kick();
      } catch (err) {
        // The database away: the whole pass fails (once) and the queue waits in its table.
        if (isConnectionError(err)) throw err;
        retryAt.set(id, Date.now() + 10_000);
        log.error({ err, sensorId: id }, 'alarm evaluation failed');
      }
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
      await notices.kick();
    },
    async stop() {
      bus.off('reading', onReading);
      await evaluator.stop();
      await notices.stop();
      notifier.close();
    },
  };
}
