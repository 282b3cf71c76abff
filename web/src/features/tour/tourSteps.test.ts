import { describe, expect, it } from 'vitest';
import { stepsFor, TOUR_STEPS } from './tourSteps';

describe('the guided tour steps', () => {
  it('are the six of spec §2, each shown only to a user holding its function', () => {
    expect(TOUR_STEPS.map((s) => s.key)).toEqual(['exceptions', 'handle', 'history', 'alarmSwitch', 'export', 'transportCode']);
    expect(stepsFor(() => true)).toHaveLength(6);
    const viewer = new Set(['viewEx', 'viewHistory']);
    expect(stepsFor((c) => viewer.has(c)).map((s) => s.key)).toEqual(['exceptions', 'history']);
    expect(stepsFor(() => false)).toEqual([]);
  });

  it('open Home first, so that the tour starts where it is shown', () => {
    expect(TOUR_STEPS[0].path).toBe('/home');
  });
});
