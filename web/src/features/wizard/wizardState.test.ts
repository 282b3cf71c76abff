import { describe, expect, it } from 'vitest';
import { EMPTY_PROGRESS, loadProgress, saveProgress, shouldOffer } from './wizardState';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe('set-up wizard progress (left and resumed)', () => {
  it('resumes where the user left, per user', () => {
    const s = memory();
    saveProgress(7, { step: 2, gatewayId: 3, gatewaySn: 'A1B2C3D4E5F6', sensorIds: [9], devNos: ['T1'], carrierId: 4 }, s);
    expect(loadProgress(7, s)).toMatchObject({ step: 2, carrierId: 4, devNos: ['T1'] });
    expect(loadProgress(8, s)).toEqual(EMPTY_PROGRESS);
  });

  it('starts fresh on a damaged or out-of-range record', () => {
    const s = memory();
    s.setItem('cw.wizard.7', '{not json');
    expect(loadProgress(7, s)).toEqual(EMPTY_PROGRESS);
    s.setItem('cw.wizard.7', JSON.stringify({ step: 99, sensorIds: [] }));
    expect(loadProgress(7, s).step).toBe(4);
  });

  it('is offered only to a customer with nothing set up who has not declined', () => {
    expect(shouldOffer({ carriers: 0, gateways: 0 }, false)).toBe(true);
    expect(shouldOffer({ carriers: 1, gateways: 0 }, false)).toBe(false);
    expect(shouldOffer({ carriers: 0, gateways: 0 }, true)).toBe(false);
  });
});
