import { describe, expect, it } from 'vitest';
import { doorOpen, positionOnRoute, sample, type SensorModel } from '@coldwatch/simulator';
import { VAN_ROUTE } from './route.js';

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

describe("the demo van's route", () => {
  it('stands at each end, drives there and back at an even pace, and stays on the route', () => {
    const [first, last] = [VAN_ROUTE.points[0], VAN_ROUTE.points.at(-1)!];
    const { legMs, stopMs } = VAN_ROUTE;
    expect(positionOnRoute(VAN_ROUTE, 0)).toEqual(first);
    expect(positionOnRoute(VAN_ROUTE, stopMs - 1)).toEqual(first);
    expect(positionOnRoute(VAN_ROUTE, stopMs + legMs)).toEqual(last);
    expect(positionOnRoute(VAN_ROUTE, 2 * stopMs + legMs - 1)).toEqual(last);
    expect(positionOnRoute(VAN_ROUTE, 2 * (stopMs + legMs))).toEqual(first);
    // Half way out and half way back are the same place; every fix lies within the route's box.
    const out = positionOnRoute(VAN_ROUTE, stopMs + legMs / 2);
    const back = positionOnRoute(VAN_ROUTE, 2 * stopMs + 1.5 * legMs);
    expect(out.lat).toBeCloseTo(back.lat, 5);
    expect(out.lng).toBeCloseTo(back.lng, 5);
    const lats = VAN_ROUTE.points.map((p) => p.lat);
    for (let ts = 0; ts < 2 * (stopMs + legMs); ts += 60_000) {
      const p = positionOnRoute(VAN_ROUTE, ts);
      expect(p.lat).toBeGreaterThanOrEqual(Math.min(...lats) - 1e-6);
      expect(p.lat).toBeLessThanOrEqual(Math.max(...lats) + 1e-6);
      expect(p.lng).toBeGreaterThanOrEqual(first.lng - 1e-6);
      expect(p.lng).toBeLessThanOrEqual(last.lng + 1e-6);
    }
  });
});
