import { describe, expect, it } from 'vitest';
import { boardState, climateOf, countByState, type BoardCarrierLike, type BoardSensorLike } from '@coldwatch/contract';

const s = (temp: number | null, over: Partial<BoardSensorLike> = {}): BoardSensorLike => ({ status: 1, lastTs: 1000, temp, hum: null, ...over });
const c = (sensors: BoardSensorLike[], over: Partial<BoardCarrierLike> = {}): BoardCarrierLike => ({
  status: 1,
  alarmOn: true,
  sampleMode: 'latest',
  tempMin: 2,
  tempMax: 8,
  humMin: null,
  humMax: null,
  openExceptions: 0,
  sensors,
  ...over,
});

describe('the carrier state every view shares', () => {
  it('follows the carrier value of the sample mode, not any single sensor', () => {
    const three = [s(9, { lastTs: 3000 }), s(5, { lastTs: 2000 }), s(1, { lastTs: 1000 })];
    expect(boardState(c(three, { sampleMode: 'latest' }))).toBe('abnormal'); // 9, the newest
    expect(boardState(c(three, { sampleMode: 'balanced' }))).toBe('normal'); // 5, max and min dropped
    expect(boardState(c(three, { sampleMode: 'avg' }))).toBe('normal'); // 5
    expect(boardState(c(three, { sampleMode: 'min' }))).toBe('abnormal'); // 1, below the zone
    expect(climateOf(c(three, { sampleMode: 'min' }))).toMatchObject({ temp: 1, tempState: 'low', ts: 3000 });
  });
  it('leaves offline sensors out of the value', () => {
    expect(boardState(c([s(9, { status: 0 }), s(5)], { sampleMode: 'max' }))).toBe('normal');
    expect(climateOf(c([s(9, { status: 0 })])).temp).toBeNull();
  });
  it('is offline without a reporting sensor, stopped when not running or alarm off, abnormal with an open exception', () => {
    expect(boardState(c([]))).toBe('offline');
    expect(boardState(c([s(5, { status: 2 })]))).toBe('offline');
    expect(boardState(c([s(20)], { alarmOn: false }))).toBe('stopped');
    expect(boardState(c([s(5)], { status: 4 }))).toBe('stopped');
    expect(boardState(c([s(5)], { openExceptions: 1 }))).toBe('abnormal');
    expect(boardState(c([s(5, { ongoing: ['temp_high'] })]))).toBe('abnormal');
    expect(boardState(c([s(5)]))).toBe('normal');
  });
  it("is not abnormal for a device's own exceptions: a power failure or a low battery of a sensor reporting in range", () => {
    expect(boardState(c([s(5, { ongoing: ['gateway_blackout', 'low_battery'] })]))).toBe('normal');
    expect(boardState(c([s(5, { ongoing: ['low_battery', 'hum_low'] })]))).toBe('abnormal');
  });
});

describe('equipment use, computed (spec §3)', () => {
  it('is bound with a carrier, unbound when reporting without one, unused when never heard of', async () => {
    const { deviceUsage } = await import('@coldwatch/contract');
    expect(deviceUsage({ carrierId: 3, lastTs: null })).toBe('bound');
    expect(deviceUsage({ carrierId: null, lastTs: 1 })).toBe('unbound');
    expect(deviceUsage({ carrierId: null, lastTs: null })).toBe('unused');
  });
});

describe("the overview's groups", () => {
  it('counts items by state per group, in the order groups appear, the most abnormal group first', () => {
    const items = [
      { type: 2, state: 'normal' as const },
      { type: 2, state: 'abnormal' as const },
      { type: 1, state: 'normal' as const },
      { type: 1, state: 'offline' as const },
      { type: 3, state: 'normal' as const },
    ];
    expect(countByState(items, (c) => c.type, (c) => `type ${c.type}`, (c) => c.state)).toEqual([
      { key: 2, label: 'type 2', total: 2, normal: 1, abnormal: 1, offline: 0, stopped: 0 },
      { key: 1, label: 'type 1', total: 2, normal: 1, abnormal: 0, offline: 1, stopped: 0 },
      { key: 3, label: 'type 3', total: 1, normal: 1, abnormal: 0, offline: 0, stopped: 0 },
    ]);
  });
});
