/** The history page's span: a quick range or picked instants, re-applied when a link brings `start`/`end`. */
import { useEffect, useState } from 'react';
import type { Dayjs } from 'dayjs';
import { fromWall, toWall } from '../../lib/format';
import { quickRange, type QuickRange } from './historyLogic';

/** A picked (wall-clock) span as instants. */
export const instantsOf = (r: [Dayjs, Dayjs], tz: string | null): [number, number] => [fromWall(r[0], tz), fromWall(r[1], tz)];

/** `initial`: the quick range a page opens with when no link names a span (the history's last 24 h; the data report's week). */
export function useHistorySpan(params: URLSearchParams, timeZone: string | null, initial: QuickRange = 'h24') {
  const [quick, setQuick] = useState<QuickRange | undefined>(params.get('start') ? undefined : initial);
  // The span as instants (UTC ms); the picker shows it on the customer's wall clock.
  const [range, setRange] = useState<[number, number]>(() => {
    const s = Number(params.get('start'));
    const e = Number(params.get('end'));
    return s > 0 ? [s, e > 0 ? e : Date.now()] : instantsOf(quickRange(initial, toWall(Date.now(), timeZone)), timeZone);
  });

  // The page stays mounted in its tab: a new link (another device, another window) re-applies.
  const startParam = params.get('start');
  const endParam = params.get('end');
  useEffect(() => {
    const s = Number(startParam);
    const e = Number(endParam);
    if (s > 0) {
      setQuick(undefined);
      setRange([s, e > 0 ? e : Date.now()]);
    }
  }, [startParam, endParam]);

  return {
    quick,
    range,
    pickQuick: (k: QuickRange) => {
      setQuick(k);
      setRange(instantsOf(quickRange(k, toWall(Date.now(), timeZone)), timeZone));
    },
    /** A span of instants picked or zoomed into: no quick range any more. */
    pick: (r: [number, number]) => {
      setQuick(undefined);
      setRange(r);
    },
  };
}
