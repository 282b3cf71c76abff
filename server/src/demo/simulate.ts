import type { FastifyBaseLogger } from 'fastify';
import { NOT_CLIMATE_SENSOR_TYPES } from '@coldwatch/contract';
import { startSimulation, type SensorModel, type SimGateway } from '@coldwatch/simulator';
import type { Db } from '../platform/db/client.js';
import { demoGateways, type DemoGateway } from './seed.js';
import { VAN_ROUTE } from './route.js';

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


/** The demo layout in the simulator's terms: same set points as the back-filled history; vehicles drive VAN_ROUTE. */
export function simulatorGateways(gateways: DemoGateway[]): SimGateway[] {
  return gateways.map((g) => ({
    sn: g.sn,
    secret: g.secret,
    tz: '+08:00',
    ...(g.sensors.some((s) => s.carrierType === 3) ? { route: VAN_ROUTE } : {}),
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

/** A gas detector's baseline by its gas, ppm: what a healthy room reads (CO2 the outdoor air's). */
const GAS_BASELINE: Record<string, number> = { '0x00': 5, '0x01': 8, '0x04': 3, '0x0A': 6, '0x32': 10, co2: 450 };

/** How often the simulator looks for gas detectors and door magnets enrolled on its gateways. */
const DEVICES_EVERY_MS = 30_000;

/**
 * The gas detectors and door magnets someone enrolled on the demo's gateways (the demo layout
 * has none; add one in the console and it starts to report): gas around its gas's baseline, a
 * door magnet on the door of the gateway's first climate sensor, opening as that sensor's
 * readings show.
 */
async function enrolledExtras(db: Db, sims: SimGateway[]): Promise<Map<string, SensorModel[]>> {
  const rows = await db.query<{ sn: string; dev_no: string; type: string; gas_code: string | null }>(
    `SELECT g.sn, s.dev_no, s.type, s.gas_code FROM sensor s JOIN gateway g ON g.id = s.gateway_id
      WHERE g.sn = ANY($1::text[]) AND s.type = ANY($2::text[]) AND s.status <> 2 ORDER BY s.id`,
    [sims.map((g) => g.sn), NOT_CLIMATE_SENSOR_TYPES],
  );
  const out = new Map<string, SensorModel[]>();
  for (const r of rows) {
    const climate = sims.find((g) => g.sn === r.sn)!.sensors.find((s) => s.kind === 'th' || s.kind === 't');
    const model: SensorModel =
      r.type === 'gas'
        ? { dev: r.dev_no, kind: 'gas', setpoint: GAS_BASELINE[r.gas_code ?? 'co2'] ?? 10 }
        : { dev: r.dev_no, kind: 'door', setpoint: 0, doorOf: climate?.dev, doorRate: climate?.doorRate ?? 0.1 };
    out.set(r.sn, [...(out.get(r.sn) ?? []), model]);
  }
  return out;
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
  const sims = simulatorGateways(gateways);
  const base = new Map(sims.map((g) => [g.sn, [...g.sensors]]));
  // The gateways' sensor lists are read at every tick: the extras join (or leave) in place.
  const refresh = async () => {
    const extras = await enrolledExtras(db, sims);
    for (const g of sims) g.sensors.splice(0, g.sensors.length, ...base.get(g.sn)!, ...(extras.get(g.sn) ?? []));
  };
  await refresh().catch((err: Error) => opts.log.warn({ err: err.message }, 'simulator: could not read the enrolled devices'));
  const devices = setInterval(() => void refresh().catch(() => undefined), DEVICES_EVERY_MS);
  const sim = startSimulation({
    url: opts.mqttUrl,
    gateways: sims,
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
    stop: () => {
      clearInterval(devices);
      return sim.stop();
    },
  };
}
