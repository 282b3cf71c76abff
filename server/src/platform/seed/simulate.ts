import type { FastifyBaseLogger } from 'fastify';
import { startSimulation, type SensorModel, type SimGateway } from '@coldwatch/simulator';
import type { Db } from '../db/client.js';
import { demoGateways, type DemoGateway } from './demo.js';

export interface RunningSimulator {
  /** One line for the banner. */
  summary: string;
  stop(): Promise<void>;
}

/** How often each demo gateway samples and sends its sensors' readings. */
export const LIVE_INTERVAL_MS = 5_000;

/**
 * Live behaviour per carrier type, in the simulator's terms: door openings per hour and
 * cooling failures per day. Incubators are opened rarely and their model's door effect
 * (warming) does not apply to them; fridges, the cold room and the van see the odd
 * excursion, so the alarm path shows itself while the demo runs.
 */
const LIVE_RATES: Record<DemoGateway['sensors'][number]['carrierType'], { doorRate: number; excursionRate: number }> = {
  1: { doorRate: 0, excursionRate: 0.02 },
  2: { doorRate: 0.08, excursionRate: 0.04 },
  3: { doorRate: 0.2, excursionRate: 0.05 },
  4: { doorRate: 0.1, excursionRate: 0.04 },
};

/** The demo layout in the simulator's terms: same set points as the back-filled history. */
export function simulatorGateways(gateways: DemoGateway[]): SimGateway[] {
  return gateways.map((g) => ({
    sn: g.sn,
    secret: g.secret,
    tz: '+08:00',
    sensors: g.sensors.map(
      (s): SensorModel => ({
        dev: s.dev,
        kind: s.humidity ? 'th' : 't',
        setpoint: s.profile.temp,
        humidity: s.profile.hum,
        ...LIVE_RATES[s.carrierType],
      }),
    ),
  }));
}

/**
 * The demo's live readings, from tools/simulator: every simulated demo gateway (never the
 * hand-driven DEMO0000FEED) connects to the broker as itself and sends its sensors'
 * readings every few seconds over MQTT, exactly as a real gateway would, with now and then
 * a short network gap that it back-fills afterwards. Undefined when there is nothing to simulate.
 */
export async function startDemoSimulator(db: Db, opts: { mqttUrl: string; log: FastifyBaseLogger }): Promise<RunningSimulator | undefined> {
  const gateways = await demoGateways(db);
  if (!gateways.length) return undefined;
  const warned = new Set<string>();
  const sim = startSimulation({
    url: opts.mqttUrl,
    gateways: simulatorGateways(gateways),
    intervalMs: LIVE_INTERVAL_MS,
    onError: (err, sn) => {
      // A broker that refuses the gateway (a secret changed in the console) would repeat every reconnect: say it once.
      if (warned.has(sn)) return;
      warned.add(sn);
      opts.log.warn({ sn, err: err.message }, 'simulator: gateway error');
    },
  });
  const sensors = gateways.reduce((n, g) => n + g.sensors.length, 0);
  return {
    summary: `${sensors} sensors on ${gateways.length} gateways send a reading every ${LIVE_INTERVAL_MS / 1000} s over MQTT`,
    stop: () => sim.stop(),
  };
}
