import type { MappingFigures, MappingPoint } from '@coldwatch/contract';

/*
 * The JJF 1101 figures from what the database aggregated (mapping.repository.ts): each point's
 * count, min, max and mean over the range, and the spread of the complete sampling instants.
 * Kept apart from the SQL so that the formulas read in one place, as docs/statistics.md
 * "Mapping figures (JJF 1101)" writes them:
 *   deviationMax = max over points of max − setpoint; deviationMin = min over points of min − setpoint
 *   fluctuation(point) = (max − min) / 2; fluctuationMax = its largest value
 *   uniformity = mean over complete instants of (highest − lowest point value)
 *   centreDeviation = mean of the centre point − setpoint
 *   hottest / coldest = the point with the highest / lowest mean (ties: the first by device number)
 */

export interface PointAggregate {
  sensorId: number;
  deviceNo: string;
  readings: number;
  min: number | null;
  max: number | null;
  mean: number | null;
}

export interface InstantAggregate {
  instants: number;
  completeInstants: number;
  /** Mean spread of the complete instants; null when there is none. */
  uniformity: number | null;
}

/** Points in device-number order, the order ties and the default centre are decided by. */
export const byDeviceNo = <T extends { deviceNo: string }>(points: readonly T[]) => [...points].sort((a, b) => (a.deviceNo < b.deviceNo ? -1 : a.deviceNo > b.deviceNo ? 1 : 0));

export function composeFigures(pointsIn: readonly PointAggregate[], inst: InstantAggregate, setpoint: number, centreSensorId: number | null): MappingFigures {
  const points: MappingPoint[] = byDeviceNo(pointsIn).map((p) => ({
    ...p,
    fluctuation: p.min === null || p.max === null ? null : (p.max - p.min) / 2,
  }));
  const measured = points.filter((p) => p.readings > 0);
  const pick = (better: (a: number, b: number) => boolean, of: (p: MappingPoint) => number | null) =>
    measured.reduce<MappingPoint | null>((best, p) => (best === null || better(of(p)!, of(best)!) ? p : best), null);
  const hottest = pick((a, b) => a > b, (p) => p.mean);
  const coldest = pick((a, b) => a < b, (p) => p.mean);
  const highest = pick((a, b) => a > b, (p) => p.max);
  const lowest = pick((a, b) => a < b, (p) => p.min);
  const flat = pick((a, b) => a > b, (p) => p.fluctuation);
  const centre = points.find((p) => p.sensorId === centreSensorId) ?? points[0];
  return {
    setpoint,
    deviationMax: highest ? highest.max! - setpoint : null,
    deviationMin: lowest ? lowest.min! - setpoint : null,
    uniformity: inst.uniformity,
    fluctuationMax: flat ? flat.fluctuation : null,
    centreDeviation: centre && centre.mean !== null ? centre.mean - setpoint : null,
    hottest: hottest?.deviceNo ?? null,
    coldest: coldest?.deviceNo ?? null,
    instants: inst.instants,
    completeInstants: inst.completeInstants,
    points,
  };
}
