import { describe, expect, it } from 'vitest';
import {
  fromWall,
  toWall,
  applyEvent,
  applyReading,
  carrierState,
  formatInZone,
  mergeFresh,
  normaliseCarrier,
  rangeState,
  type MonitorCarrier,
} from './monitorState';

const board = (): MonitorCarrier[] => [
  normaliseCarrier({
    id: 1,
    name: 'Fridge A',
    type: 2,
    status: 1,
    sceneId: 3,
    tempMin: '2.00',
    tempMax: '8.00',
    humMin: null,
    humMax: null,
    sensors: [
      { id: 10, devNo: 'S10', type: 'zigbee_t', status: 1, lastTs: 1000, lastTemp: 5, lastHum: null },
      { id: 11, devNo: 'S11', type: 'zigbee_th', status: 0, lastTs: null, lastTemp: null, lastHum: null },
    ],
  }),
  normaliseCarrier({ id: 2, name: 'Van', type: 3, status: 1, sceneId: 4, sensors: [] }),
];

describe('rangeState', () => {
  it('is high above max, low below min, ok inside and at the limits', () => {
    expect(rangeState(8.1, 2, 8)).toBe('high');
    expect(rangeState(1.9, 2, 8)).toBe('low');
    expect(rangeState(2, 2, 8)).toBe('ok');
    expect(rangeState(8, 2, 8)).toBe('ok');
  });
  it('has no state without a value, and open ends never trip', () => {
    expect(rangeState(null, 2, 8)).toBe('none');
    expect(rangeState(undefined, 2, 8)).toBe('none');
    expect(rangeState(100, null, null)).toBe('ok');
    expect(rangeState(-100, null, 8)).toBe('ok');
  });
});

describe('normaliseCarrier', () => {
  it('turns numeric strings and ISO times into numbers', () => {
    const c = normaliseCarrier({ id: '5', type: '1', status: '1', sceneId: '2', tempMin: '-20.5', sensors: [{ id: '9', status: '1', lastTs: '2025-01-01T00:00:00Z', lastTemp: '3.25' }] });
    expect(c.tempMin).toBe(-20.5);
    expect(c.tempMax).toBeNull();
    expect(c.sensors[0].lastTs).toBe(Date.UTC(2025, 0, 1));
    expect(c.sensors[0].lastTemp).toBe(3.25);
  });
});

describe('stream merge', () => {
  it('a reading updates its sensor and nothing else', () => {
    const b = board();
    const next = applyEvent(b, { type: 'reading', data: { sensorId: 10, ts: 2000, temp: 9.5 } });
    expect(next[0].sensors[0]).toMatchObject({ lastTs: 2000, lastTemp: 9.5 });
    expect(next[1]).toBe(b[1]);
    expect(next[0].sensors[1]).toBe(b[0].sensors[1]);
    expect(b[0].sensors[0].lastTemp).toBe(5); // not mutated
  });
  it('an older reading is ignored and an unknown sensor leaves the board as it is', () => {
    const b = board();
    expect(applyReading(b, { sensorId: 10, ts: 500, temp: 1 })).toBe(b);
    expect(applyReading(b, { sensorId: 99, ts: 5000, temp: 1 })).toBe(b);
  });
  it('a reading keeps values it does not carry and brings an offline sensor online', () => {
    const b = board();
    const next = applyReading(b, { sensorId: 11, ts: 3000, hum: 55 });
    expect(next[0].sensors[1]).toMatchObject({ lastHum: 55, lastTemp: null, status: 1 });
  });
  it('device status applies to sensors only', () => {
    const b = board();
    const next = applyEvent(b, { type: 'deviceStatus', data: { kind: 'sensor', id: 10, status: 0 } });
    expect(next[0].sensors[0].status).toBe(0);
    expect(applyEvent(b, { type: 'deviceStatus', data: { kind: 'gateway', id: 10, status: 0 } })).toBe(b);
  });
  it('exceptions open and close per category', () => {
    let b = board();
    b = applyEvent(b, { type: 'exception', data: { exceptionId: 1, carrierId: 1, sensorId: 10, category: 'temp_high', ongoing: true } });
    expect(b[0].sensors[0].ongoing).toEqual(['temp_high']);
    expect(carrierState(b[0])).toBe('alarm');
    b = applyEvent(b, { type: 'exception', data: { exceptionId: 1, carrierId: 1, sensorId: 10, category: 'temp_high', ongoing: false } });
    expect(b[0].sensors[0].ongoing).toEqual([]);
    expect(carrierState(b[0])).toBe('ok');
  });
  it('a fresh list keeps a newer streamed reading', () => {
    const streamed = applyReading(board(), { sensorId: 10, ts: 9000, temp: 7 });
    const fresh = board(); // read before the stream's reading
    const merged = mergeFresh(fresh, streamed);
    expect(merged[0].sensors[0]).toMatchObject({ lastTs: 9000, lastTemp: 7 });
    const newer = normaliseCarrier({ ...fresh[0], sensors: [{ ...fresh[0].sensors[0], lastTs: 10000, lastTemp: 4 }] });
    expect(mergeFresh([newer], streamed)[0].sensors[0]).toMatchObject({ lastTs: 10000, lastTemp: 4 });
  });
});

describe('carrierState', () => {
  it('is alarm when an online sensor is out of its zone', () => {
    const b = applyReading(board(), { sensorId: 10, ts: 2000, temp: 1 });
    expect(carrierState(b[0])).toBe('alarm');
  });
  it('is offline when no sensor is online, empty without sensors', () => {
    const b = applyEvent(board(), { type: 'deviceStatus', data: { kind: 'sensor', id: 10, status: 0 } });
    expect(carrierState(b[0])).toBe('offline');
    expect(carrierState(b[1])).toBe('empty');
  });
});

describe('formatInZone', () => {
  it('shows the time in the given offset', () => {
    const ts = Date.UTC(2025, 0, 1, 23, 30, 0);
    expect(formatInZone(ts, '+08:00')).toBe('2025-01-02 07:30:00');
    expect(formatInZone(ts, '-05:30')).toBe('2025-01-01 18:00:00');
    expect(formatInZone(null, '+08:00')).toBe('');
  });
});

describe('server shape', () => {
  it('reads the latest values named temp/hum and counts open exceptions', () => {
    const c = normaliseCarrier({
      id: 1, name: 'X', type: 1, status: 1, sceneId: 1, tempMin: '2.00', tempMax: '8.00', openExceptions: 1,
      sensors: [{ id: 3, devNo: 'D', type: 'zigbee_th', status: 1, lastTs: 5, temp: '4.52', hum: '40.10', volt: '3.60', rssi: -70 }],
    });
    expect(c.sensors[0]).toMatchObject({ lastTemp: 4.52, lastHum: 40.1, lastVolt: 3.6, lastRssi: -70 });
    expect(carrierState(c)).toBe('alarm');
    expect(carrierState({ ...c, openExceptions: 0 })).toBe('ok');
  });
});

describe('wall clock of a zone', () => {
  it('round-trips an instant through the picker value', () => {
    const ts = Date.UTC(2025, 5, 30, 20, 15, 0);
    for (const tz of ['+08:00', '-05:30', '+00:00', null]) expect(fromWall(toWall(ts, tz), tz)).toBe(ts);
  });
  it('shows the zone time in the picker value', () => {
    const w = toWall(Date.UTC(2025, 0, 1, 23, 30), '+08:00');
    expect(w.format('YYYY-MM-DD HH:mm')).toBe('2025-01-02 07:30');
    // start of that day in the zone is 2025-01-01 16:00 UTC
    expect(fromWall(w.startOf('day'), '+08:00')).toBe(Date.UTC(2025, 0, 1, 16, 0));
  });
});
