import { describe, expect, it } from 'vitest';
import { historyLink, percent, summariseCarriers } from './homeLogic';

describe('home widgets', () => {
  it('counts carriers by state and status, and their bound sensors', () => {
    const sensor = (temp: number, status = 1) => ({ status, lastTs: 1, temp, hum: null });
    const zone = { sampleMode: 'latest' as const, tempMin: 2, tempMax: 8, humMin: null, humMax: null, openExceptions: 0 };
    const list: Parameters<typeof summariseCarriers>[0] = [
      { ...zone, status: 1, alarmOn: true, sensors: [sensor(5), sensor(6)] },
      { ...zone, status: 1, alarmOn: true, sensors: [sensor(9)] },
      { ...zone, status: 1, alarmOn: true, sensors: [sensor(5, 0)] },
      { ...zone, status: 3, alarmOn: false, sensors: [] },
    ];
    const s = summariseCarriers(list);
    expect(s.total).toBe(4);
    expect(s.byState).toEqual({ normal: 1, abnormal: 1, offline: 1, stopped: 1 });
    expect(s.byStatus).toEqual({ 1: 3, 3: 1 });
    expect(s.boundSensors).toBe(4);
    expect(s.alarmOff).toBe(1);
    expect(summariseCarriers([]).total).toBe(0);
  });
  it('counts the carriers whose alarm is on but reaches nobody, naming the first three', () => {
    const c = (name: string, alarmOn: boolean, reachesNobody: boolean) => ({
      name, alarmOn, reachesNobody, status: 1, sensors: [], sampleMode: 'latest' as const, tempMin: 2, tempMax: 8, humMin: null, humMax: null, openExceptions: 0,
    });
    const s = summariseCarriers([c('A', true, true), c('B', true, false), c('C', false, true), c('D', true, true), c('E', true, true), c('F', true, true)]);
    expect(s.reachNobody).toBe(4);
    expect(s.reachNobodyNames).toEqual(['A', 'D', 'E']);
    expect(summariseCarriers([c('B', true, false)]).reachNobody).toBe(0);
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
