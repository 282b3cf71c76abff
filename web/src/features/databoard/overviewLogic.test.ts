import { describe, expect, it } from 'vitest';
import { countBy, offlineSensors } from './overviewLogic';

const carrier = (id: number, type: number, temp: number | null, status = 1) => ({
  id,
  name: `C${id}`,
  type,
  status: 1,
  alarmOn: true,
  sampleMode: 'latest' as const,
  tempMin: 2,
  tempMax: 8,
  humMin: null,
  humMax: null,
  openExceptions: 0,
  sensors: temp === null ? [] : [{ id: id * 10, devNo: `S${id}`, status, lastTs: 1, temp, hum: null }],
});

describe('overview', () => {
  const list = [carrier(1, 2, 5), carrier(2, 2, 9), carrier(3, 1, 5, 0), carrier(4, 1, 5)];
  it('counts carriers by state per group, the most abnormal group first', () => {
    expect(countBy(list, (c) => c.type, (c) => `type ${c.type}`)).toEqual([
      { key: 2, label: 'type 2', total: 2, normal: 1, abnormal: 1, offline: 0, stopped: 0 },
      { key: 1, label: 'type 1', total: 2, normal: 1, abnormal: 0, offline: 1, stopped: 0 },
    ]);
  });
  it('lists the sensors that do not report, with their carrier', () => {
    expect(offlineSensors(list).map((x) => [x.sensor.devNo, x.carrier.name])).toEqual([['S3', 'C3']]);
  });
});
