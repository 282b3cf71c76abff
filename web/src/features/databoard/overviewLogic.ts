/** The pure part of /databoard/overview: carriers counted by state within groups. */
import { boardState, sensorOnline, type BoardCarrierLike, type BoardSensorLike, type BoardState } from '@coldwatch/contract';

export type StateCounts = Record<BoardState, number> & { total: number };

export interface GroupCounts<K> extends StateCounts {
  key: K;
  label: string;
}

const empty = (): StateCounts => ({ total: 0, normal: 0, abnormal: 0, offline: 0, stopped: 0 });

/** Counts per group, in the order the groups first appear; the worst (most abnormal) groups first. */
export function countBy<T extends BoardCarrierLike, K>(carriers: readonly T[], keyOf: (c: T) => K, labelOf: (c: T) => string): GroupCounts<K>[] {
  const groups = new Map<K, GroupCounts<K>>();
  for (const c of carriers) {
    const k = keyOf(c);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ...empty(), key: k, label: labelOf(c) }));
    g.total += 1;
    g[boardState(c)] += 1;
  }
  return [...groups.values()].sort((a, b) => b.abnormal - a.abnormal || b.offline - a.offline || b.total - a.total);
}

/** The sensors of the carriers that are not reporting, with their carrier. */
export function offlineSensors<T extends { sensors: readonly BoardSensorLike[] }>(carriers: readonly T[]): { sensor: T['sensors'][number]; carrier: T }[] {
  return carriers.flatMap((c) => c.sensors.filter((s) => !sensorOnline(s)).map((sensor) => ({ sensor, carrier: c })));
}
