import { describe, expect, it } from 'vitest';
import type { LiveReading, LiveSensor } from '@coldwatch/contract';
import { applyEvent, applyEvents, applyReading, carrierState, mergeFresh, type MonitorCarrier } from './monitorState';

/** A sensor of the monitor list, as the contract's liveSensor answers it. */
const sensor = (over: Partial<LiveSensor>): LiveSensor => ({
  id: 10,
  devNo: 'S10',
  type: 'zigbee_t',
  status: 1,
  carrierId: 1,
  gatewayId: 1,
  gatewaySn: 'G1',
  lastTs: 1000,
  temp: 5,
  hum: null,
  volt: null,
  rssi: null,
  lqi: null,
  gas: null,
  door: null,
  tempState: 'normal',
  humState: null,
  inRange: true,
  ...over,
});

const carrier = (over: Partial<MonitorCarrier>): MonitorCarrier => ({
  id: 1,
  name: 'Fridge A',
  type: 2,
  status: 1,
  alarmOn: true,
  mode: 'normal',
  loadType: 0,
  traceable: false,
  isKpi: true,
  sampleMode: 'latest',
  mktDh: 10_000,
  triggerId: 1,
  triggerName: 'Day and night',
  channels: ['email'],
  hasTrigger: true,
  reachesNobody: false,
  pausedUntil: null,
  pauseReason: '',
  sceneId: 3,
  sceneLabel: 'Ward',
  sceneCode: 'W',
  customerId: 1,
  customerName: 'Alpha',
  tempMin: 2,
  tempMax: 8,
  humMin: null,
  humMax: null,
  alarmDelayS: 0,
  tempMargin: 0.3,
  humMargin: 2,
  sensorCount: 0,
  createdAt: 0,
  openExceptions: 0,
  state: 'normal',
  sensors: [],
  ...over,
});

const board = (): MonitorCarrier[] => [
  carrier({ sensors: [sensor({}), sensor({ id: 11, devNo: 'S11', type: 'zigbee_th', status: 0, lastTs: null, temp: null })] }),
  carrier({ id: 2, name: 'Van', type: 3, sceneId: 4 }),
];

const reading = (r: Partial<LiveReading> & { sensorId: number; ts: number }): LiveReading => ({ customerId: 1, devNo: 'S', carrierId: 1, ...r });

describe('stream merge', () => {
  it('a reading updates its sensor and nothing else', () => {
    const b = board();
    const next = applyEvent(b, { type: 'reading', data: reading({ sensorId: 10, ts: 2000, temp: 9.5 }) });
    expect(next[0].sensors[0]).toMatchObject({ lastTs: 2000, temp: 9.5 });
    expect(next[1]).toBe(b[1]);
    expect(next[0].sensors[1]).toBe(b[0].sensors[1]);
    expect(b[0].sensors[0].temp).toBe(5); // not mutated
  });
  it('an older reading is ignored and an unknown sensor leaves the board as it is', () => {
    const b = board();
    expect(applyReading(b, reading({ sensorId: 10, ts: 500, temp: 1 }))).toBe(b);
    expect(applyReading(b, reading({ sensorId: 99, ts: 5000, temp: 1 }))).toBe(b);
  });
  it('a reading keeps values it does not carry and brings an offline sensor online', () => {
    const next = applyReading(board(), reading({ sensorId: 11, ts: 3000, hum: 55 }));
    expect(next[0].sensors[1]).toMatchObject({ hum: 55, temp: null, status: 1 });
  });
  it('device status applies to sensors only', () => {
    const b = board();
    const next = applyEvent(b, { type: 'deviceStatus', data: { customerId: 1, kind: 'sensor', id: 10, status: 0 } });
    expect(next[0].sensors[0].status).toBe(0);
    expect(applyEvent(b, { type: 'deviceStatus', data: { customerId: 1, kind: 'gateway', id: 10, status: 0 } })).toBe(b);
  });
  it('exceptions open and close per category', () => {
    let b = board();
    const ex = { customerId: 1, exceptionId: 1, carrierId: 1, sensorId: 10, category: 'temp_high' };
    b = applyEvent(b, { type: 'exception', data: { ...ex, ongoing: true } });
    expect(b[0].sensors[0].ongoing).toEqual(['temp_high']);
    expect(carrierState(b[0])).toBe('abnormal');
    b = applyEvent(b, { type: 'exception', data: { ...ex, ongoing: false } });
    expect(b[0].sensors[0].ongoing).toEqual([]);
    expect(carrierState(b[0])).toBe('normal');
  });
  it("a gateway's power failure is kept on every sensor reporting through it, and a low battery on its sensor; neither makes the carrier abnormal", () => {
    let b = board();
    const power = { customerId: 1, exceptionId: 2, carrierId: null, sensorId: null, gatewayId: 1, category: 'gateway_blackout' };
    b = applyEvent(b, { type: 'exception', data: { ...power, ongoing: true } });
    expect(b[0].sensors[0].ongoing).toEqual(['gateway_blackout']);
    b = applyEvent(b, { type: 'exception', data: { customerId: 1, exceptionId: 3, carrierId: 1, sensorId: 10, category: 'low_battery', ongoing: true } });
    expect(b[0].sensors[0].ongoing).toEqual(['gateway_blackout', 'low_battery']);
    expect(carrierState(b[0])).toBe('normal');
    b = applyEvent(b, { type: 'exception', data: { ...power, ongoing: false } });
    expect(b[0].sensors[0].ongoing).toEqual(['low_battery']);
    // Another gateway's failure changes nothing.
    const same = applyEvent(b, { type: 'exception', data: { ...power, gatewayId: 9, ongoing: true } });
    expect(same).toBe(b);
  });
  it("a fresh list's device states replace the old ones, the stream's temperature ones stay", () => {
    const streamed = board().map((c) => ({ ...c, sensors: c.sensors.map((x) => ({ ...x, ongoing: ['temp_high', 'gateway_blackout'] })) }));
    const fresh = board().map((c) => ({ ...c, sensors: c.sensors.map((x) => ({ ...x, ongoing: ['low_battery'] })) }));
    expect(mergeFresh(fresh, streamed)[0].sensors[0].ongoing).toEqual(['low_battery', 'temp_high']);
  });
  it('a batch applies every event in order over one index, and leaves untouched carriers as they were', () => {
    const b = [...board(), carrier({ id: 3, name: 'Cold room', sensors: [sensor({ id: 30, devNo: 'S30', carrierId: 3 })] })];
    const next = applyEvents(b, [
      { type: 'reading', data: reading({ sensorId: 30, ts: 2000, temp: 6 }) },
      { type: 'reading', data: reading({ sensorId: 10, ts: 2000, temp: 9 }) },
      { type: 'reading', data: reading({ sensorId: 30, ts: 3000, temp: 7 }) },
      { type: 'reading', data: reading({ sensorId: 30, ts: 2500, temp: 1 }) }, // late: ignored
      { type: 'reading', data: reading({ sensorId: 99, ts: 2500, temp: 1 }) }, // not on the board
    ]);
    expect(next[2].sensors[0]).toMatchObject({ lastTs: 3000, temp: 7 });
    expect(next[0].sensors[0]).toMatchObject({ lastTs: 2000, temp: 9 });
    expect(next[1]).toBe(b[1]);
    expect(applyEvents(b, [])).toBe(b);
    expect(applyEvents(b, [{ type: 'reading', data: reading({ sensorId: 99, ts: 1, temp: 1 }) }])).toBe(b);
  });
  it('a fresh list keeps a newer streamed reading', () => {
    const streamed = applyReading(board(), reading({ sensorId: 10, ts: 9000, temp: 7 }));
    const fresh = board(); // read before the stream's reading
    expect(mergeFresh(fresh, streamed)[0].sensors[0]).toMatchObject({ lastTs: 9000, temp: 7 });
    const newer = { ...fresh[0], sensors: [{ ...fresh[0].sensors[0], lastTs: 10000, temp: 4 }] };
    expect(mergeFresh([newer], streamed)[0].sensors[0]).toMatchObject({ lastTs: 10000, temp: 4 });
  });
});

describe('carrierState', () => {
  it('is abnormal when an online sensor is out of its zone', () => {
    expect(carrierState(applyReading(board(), reading({ sensorId: 10, ts: 2000, temp: 1 }))[0])).toBe('abnormal');
  });
  it('is abnormal while the carrier has open exceptions, normal without', () => {
    expect(carrierState({ ...board()[0], openExceptions: 1 })).toBe('abnormal');
    expect(carrierState(board()[0])).toBe('normal');
  });
  it('is offline when no sensor is online or it has none', () => {
    const b = applyEvent(board(), { type: 'deviceStatus', data: { customerId: 1, kind: 'sensor', id: 10, status: 0 } });
    expect(carrierState(b[0])).toBe('offline');
    expect(carrierState(b[1])).toBe('offline');
  });
});
