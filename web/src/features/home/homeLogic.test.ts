import { describe, expect, it } from 'vitest';
import type { LiveSensor } from '@coldwatch/contract';
import { historyLink, percent, summariseCarriers } from './homeLogic';

describe('home widgets', () => {
  it('counts carriers by state and status, and their bound sensors', () => {
    const sensor = {} as LiveSensor;
    const list: Parameters<typeof summariseCarriers>[0] = [
      { status: 1, alarmOn: true, state: 'normal', sensors: [sensor, sensor] },
      { status: 1, alarmOn: true, state: 'abnormal', sensors: [sensor] },
      { status: 3, alarmOn: false, state: 'stopped', sensors: [] },
    ];
    const s = summariseCarriers(list);
    expect(s.total).toBe(3);
    expect(s.byState).toEqual({ normal: 1, abnormal: 1, stopped: 1 });
    expect(s.byStatus).toEqual({ 1: 2, 3: 1 });
    expect(s.boundSensors).toBe(3);
    expect(s.alarmOff).toBe(1);
    expect(summariseCarriers([]).total).toBe(0);
  });
  it('percent of an empty whole is 0', () => {
    expect(percent(1, 4)).toBe(25);
    expect(percent(3, 0)).toBe(0);
  });
  it('links an exception to its device history around it', () => {
    const h = 3_600_000;
    const link = historyLink({ devNo: 'S-1', startTs: 10 * h, endTs: 12 * h, ongoing: false }, 100 * h)!;
    const q = new URLSearchParams(link.split('?')[1]);
    expect(link.startsWith('/historyData?')).toBe(true);
    expect([q.get('deviceNo'), Number(q.get('start')), Number(q.get('end'))]).toEqual(['S-1', 9 * h, 13 * h]);
    const ongoing = new URLSearchParams(historyLink({ devNo: 'S-1', startTs: 10 * h, endTs: null, ongoing: true }, 20 * h)!.split('?')[1]);
    expect(Number(ongoing.get('end'))).toBe(20 * h);
    expect(historyLink({ devNo: null, startTs: 0, endTs: null, ongoing: true })).toBeUndefined();
  });
});
