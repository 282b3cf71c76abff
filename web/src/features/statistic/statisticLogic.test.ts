import { describe, expect, it } from 'vitest';
import { distance, pct, plotted, type CarrierHealth } from './statisticLogic';

const good: CarrierHealth = { carrierId: 1, name: 'Fridge', passRate: 1, excursions: 0, offlineRate: 0, openExceptions: 0, overdueCalibrations: 0 };
const figures = { min: 2, max: 9, avg: 5.256, stdDev: 1, mkt: 6.0527, passRate: 0.66666, timeInZoneS: 1200, offlineRate: 0.25, excursions: 1, excursionS: 60, readings: 3, excludedS: 0 };

describe('distance from good (guidance analysis)', () => {
  it('is 0 with nothing to look at', () => {
    expect(distance(good)).toEqual({ score: 0, concerns: [] });
  });
  it('ranks the concerns by their weight: open exceptions before a pass rate a little short, calibration before offline', () => {
    const d = distance({ ...good, passRate: 0.9, openExceptions: 3, overdueCalibrations: 1, offlineRate: 0.1 });
    expect(d.concerns).toEqual(['openExceptions', 'calibration', 'passRate', 'offline']);
    expect(d.score).toBeCloseTo(3 + 2 + 0.3 + 0.2, 9);
  });
  it('a carrier without a zone is not judged on its pass rate', () => {
    expect(distance({ ...good, passRate: null }).score).toBe(0);
  });
});

describe('figures as shown', () => {
  it('shares in per cent with two decimals, values rounded to 0.01', () => {
    expect(pct(0.66666)).toBe('66.67 %');
    expect(pct(null)).toBe('--');
    expect(plotted(figures, 'passRate')).toBe(66.67);
    expect(plotted(figures, 'mkt')).toBe(6.05);
    expect(plotted({ ...figures, mkt: null }, 'mkt')).toBeNull();
  });
});
