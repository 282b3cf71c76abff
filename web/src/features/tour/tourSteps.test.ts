import { describe, expect, it } from 'vitest';
import seeded from '../../../../server/src/platform/seed/guide.json';
import { stepsFor, stepText, TOUR_STEPS } from './tourSteps';

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

  it('take their texts from the guide\'s "tour" articles, which the product seeds for every step in both languages', () => {
    for (const s of TOUR_STEPS) {
      expect(stepText(seeded, s.key, 'en-US')?.title, s.key).toBeTruthy();
      expect(stepText(seeded, s.key, 'zh-CN')?.text, s.key).toBeTruthy();
    }
    const edited = [{ code: 'tour', items: [{ code: 'tour.export', nameZh: '导出', nameEn: 'Export it', contentZh: '中文', contentEn: 'As staff wrote it' }] }];
    expect(stepText(edited, 'export', 'en-US')).toEqual({ title: 'Export it', text: 'As staff wrote it' });
    // Not in the guide, or a language the guide does not hold: the catalogue's text.
    expect(stepText(edited, 'history', 'en-US')).toBeNull();
    expect(stepText(edited, 'export', 'ja-JP')).toBeNull();
    expect(stepText(undefined, 'export', 'en-US')).toBeNull();
  });
});
