/** Pure helpers of the home widgets. */
import { boardState, type BoardCarrierLike, type BoardState, type ExceptionRow } from '@coldwatch/contract';

export type CarrierState = BoardState;

export interface CarrierSummary {
  total: number;
  byState: Record<CarrierState, number>;
  /** Count per carrier status (1 running … 5 defrost). */
  byStatus: Record<number, number>;
  /** Sensors bound to the listed carriers. */
  boundSensors: number;
  alarmOff: number;
  /** Carriers whose alarm is on but would reach nobody, and the first of their names (the home warning). */
  reachNobody: number;
  reachNobodyNames: string[];
}

/** Carrier statistics from the live board's carriers, by the state every view shares (board.ts). */
export function summariseCarriers(list: readonly (BoardCarrierLike & { name?: string; reachesNobody?: boolean })[]): CarrierSummary {
  const s: CarrierSummary = { total: list.length, byState: { normal: 0, abnormal: 0, offline: 0, stopped: 0 }, byStatus: {}, boundSensors: 0, alarmOff: 0, reachNobody: 0, reachNobodyNames: [] };
  for (const c of list) {
    s.byState[boardState(c)] += 1;
    s.byStatus[c.status] = (s.byStatus[c.status] ?? 0) + 1;
    s.boundSensors += c.sensors.length;
    if (!c.alarmOn) s.alarmOff += 1;
    if (c.alarmOn && c.reachesNobody) {
      s.reachNobody += 1;
      if (s.reachNobodyNames.length < 3 && c.name) s.reachNobodyNames.push(c.name);
    }
  }
  return s;
}

/** Share of a part in a whole, as a whole percent (0 when the whole is 0). */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** A row of GET /service/exception/latest: the exception row's fields the widget shows. */
export type LatestException = Pick<
  ExceptionRow,
  'id' | 'carrierName' | 'devNo' | 'type' | 'category' | 'status' | 'ongoing' | 'startTs' | 'endTs' | 'durationS' | 'firstValue' | 'peakValue'
>;

const HOUR = 3_600_000;

/**
 * The history page of the exception's device around the exception: from an hour before its
 * start to an hour after its end (or now while it goes on). Undefined without a device.
 */
export function historyLink(r: Pick<LatestException, 'devNo' | 'startTs' | 'endTs' | 'ongoing'>, now = Date.now()): string | undefined {
  if (!r.devNo) return undefined;
  const start = r.startTs - HOUR;
  const end = r.ongoing || !r.endTs ? now : Math.min(now, r.endTs + HOUR);
  return `/historyData?${new URLSearchParams({ deviceNo: r.devNo, start: String(start), end: String(end) })}`;
}

/** Unit of an exception category's values (temperature °C, humidity %RH, others none). */
export const valueUnit = (category: string) => (category.startsWith('temp') ? '°C' : category.startsWith('hum') ? '%RH' : '');
