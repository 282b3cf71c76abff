/**
 * The board's alarm sound (spec §3 "alarm volume" and "alarm count", /sys/paramsetup): when an
 * exception opens on the live stream, the device monitor beeps `count` times at `volume` percent.
 * Count 0 or volume 0 is silence. Pure parts here, tested; the Web Audio player below them.
 */
import type { LiveEvent } from '@coldwatch/contract';

/** The defaults of the contract's PARAMS.alarm_volume and alarm_count (alarmSound.test.ts holds them together; the contract's rules carry zod, which the board does not load). */
export const ALARM_SOUND_DEFAULTS = { volume: 60, count: 3 } as const;

/** One beep's length and the pause after it, ms. */
const BEEP_MS = 300;
const GAP_MS = 400;

/** The start of each beep, ms from now; none when silent. */
export function beepPlan(volume: number, count: number): number[] {
  if (!(volume > 0) || !(count > 0)) return [];
  return Array.from({ length: Math.min(10, Math.floor(count)) }, (_, i) => i * (BEEP_MS + GAP_MS));
}

/** The exceptions of a batch that open and were not heard before (an exception beeps once, however often it is sent). */
export function newAlarms(events: readonly LiveEvent[], heard: Set<number>): number[] {
  const out: number[] = [];
  for (const e of events) {
    if (e.type !== 'exception' || !e.data.ongoing || heard.has(e.data.exceptionId)) continue;
    heard.add(e.data.exceptionId);
    out.push(e.data.exceptionId);
  }
  return out;
}

/** The parameter's value as a number in its range, else its default. */
export const settingOf = (stored: string | undefined, fallback: number, max: number) => {
  const n = Number(stored);
  return stored !== undefined && stored !== '' && Number.isInteger(n) && n >= 0 && n <= max ? n : fallback;
};

let audio: AudioContext | undefined;

/** Plays the plan: a 880 Hz tone per beep at the volume (0-100 %). Silently nothing where the browser has no Web Audio. */
export function playAlarm(volume: number, count: number) {
  const plan = beepPlan(volume, count);
  if (!plan.length || typeof window === 'undefined' || !('AudioContext' in window)) return;
  audio ??= new AudioContext();
  const ctx = audio;
  void ctx.resume?.();
  for (const at of plan) {
    const start = ctx.currentTime + at / 1000;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(volume / 100, start);
    gain.gain.setValueAtTime(0, start + BEEP_MS / 1000);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + BEEP_MS / 1000);
  }
}
