import { describe, expect, it } from 'vitest';
import { PARAMS } from '@coldwatch/contract';
import { ALARM_SOUND_DEFAULTS, beepPlan, newAlarms, settingOf } from './alarmSound';

const ex = (exceptionId: number, ongoing = true) => ({ type: 'exception' as const, data: { customerId: 1, exceptionId, carrierId: 1, sensorId: 1, category: 'temp_high', ongoing } });

describe("the board's alarm sound (spec §3 alarm volume and count)", () => {
  it('beeps count times, none when the count or the volume is 0', () => {
    expect(beepPlan(60, 3)).toEqual([0, 700, 1400]);
    expect(beepPlan(60, 1)).toEqual([0]);
    expect(beepPlan(0, 3)).toEqual([]);
    expect(beepPlan(60, 0)).toEqual([]);
  });

  it('an exception beeps when it opens, once; an ended one and other events do not', () => {
    const heard = new Set<number>();
    expect(newAlarms([ex(1), ex(2, false), { type: 'deviceStatus', data: { customerId: 1, kind: 'sensor', id: 1, status: 0 } }], heard)).toEqual([1]);
    expect(newAlarms([ex(1), ex(3)], heard)).toEqual([3]);
  });

  it('reads the parameters, their defaults when missing or out of range, the same defaults as the contract', () => {
    expect(settingOf('80', 60, 100)).toBe(80);
    expect(settingOf(undefined, 60, 100)).toBe(60);
    expect(settingOf('101', 60, 100)).toBe(60);
    expect(settingOf('x', 3, 10)).toBe(3);
    expect(String(ALARM_SOUND_DEFAULTS.volume)).toBe(PARAMS.alarm_volume.default);
    expect(String(ALARM_SOUND_DEFAULTS.count)).toBe(PARAMS.alarm_count.default);
  });
});
