import { describe, expect, it } from 'vitest';
import { doorOpen, sample, type SensorModel } from '@coldwatch/simulator';

/** The simulator speaks the other kinds (device-protocol.md): gas detectors in ppm, door magnets 1 open / 0 closed. */

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

describe('simulated gas detectors and door magnets', () => {
  it('a gas detector reports only gas, near its baseline', () => {
    const gas: SensorModel = { dev: 'G1', kind: 'gas', setpoint: 450 };
    for (let t = T0; t < T0 + 24 * HOUR; t += 97_000) {
      const r = sample(gas, t);
      expect(Object.keys(r).sort()).toEqual(['dev', 'gas', 'rssi', 'ts', 'volt']);
      expect(r.gas!).toBeGreaterThan(450 * 0.8);
      expect(r.gas!).toBeLessThan(450 * 1.2);
    }
  });

  it('a door magnet is open exactly while its door is, and its door does open now and then', () => {
    const magnet: SensorModel = { dev: 'M1', kind: 'door', setpoint: 0, doorOf: 'T1', doorRate: 0.5 };
    let open = 0;
    for (let t = T0; t < T0 + 48 * HOUR; t += 10_000) {
      const r = sample(magnet, t);
      expect(r.door).toBe(doorOpen('T1', 0.5, t) ? 1 : 0);
      expect(r.temp).toBeUndefined();
      open += r.door!;
    }
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan((48 * HOUR) / 10_000 / 4);
  });
});
