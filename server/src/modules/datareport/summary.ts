import type { DataReportCarrier, DataReportResult, StatisticResult } from '@coldwatch/contract';

/*
 * How the data report adds carriers up (docs/statistics.md "The data report"): the mean of the
 * carriers' pass and offline rates, each carrier counting once whatever its number of sensors or
 * readings (a report compares places, not probes), carriers without the figure left out; the
 * excursions, their time and the readings summed.
 */

type Aggregate = DataReportResult['summary'];

/** A carrier's line of the report from its statistics over the span. */
export function carrierLine(s: StatisticResult, meta: { type: number; sceneLabel: string }): DataReportCarrier {
  const { temp, hum } = s.summary;
  return {
    carrierId: s.carrierId,
    name: s.name,
    type: meta.type,
    sceneLabel: meta.sceneLabel,
    readings: temp.readings,
    min: temp.min,
    max: temp.max,
    mkt: temp.mkt,
    passRate: temp.passRate,
    humPassRate: hum?.passRate ?? null,
    offlineRate: temp.offlineRate,
    excursions: temp.excursions + (hum?.excursions ?? 0),
    excursionS: temp.excursionS + (hum?.excursionS ?? 0),
  };
}

const mean = (values: (number | null)[]) => {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};

export function aggregate(lines: readonly DataReportCarrier[]): Aggregate {
  return {
    carriers: lines.length,
    reporting: lines.filter((l) => l.readings > 0).length,
    allInZone: lines.filter((l) => l.passRate === 1 && (l.humPassRate === null || l.humPassRate === 1)).length,
    passRate: mean(lines.map((l) => l.passRate)),
    humPassRate: mean(lines.map((l) => l.humPassRate)),
    offlineRate: mean(lines.map((l) => l.offlineRate)),
    excursions: lines.reduce((a, l) => a + l.excursions, 0),
    excursionS: lines.reduce((a, l) => a + l.excursionS, 0),
    readings: lines.reduce((a, l) => a + l.readings, 0),
  };
}

/** Worst first: the lowest pass rate (a carrier without one after those with one), then the most excursions, then by name. */
export function worstFirst(a: DataReportCarrier, b: DataReportCarrier): number {
  if (a.passRate !== b.passRate) {
    if (a.passRate === null) return 1;
    if (b.passRate === null) return -1;
    return a.passRate - b.passRate;
  }
  return b.excursions - a.excursions || a.name.localeCompare(b.name);
}

/** The lines by carrier type, in the order of the types' numbers. */
export function byType(lines: readonly DataReportCarrier[]): DataReportResult['byType'] {
  const types = [...new Set(lines.map((l) => l.type))].sort((x, y) => x - y);
  return types.map((type) => ({ type, ...aggregate(lines.filter((l) => l.type === type)) }));
}
