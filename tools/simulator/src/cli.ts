import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { generateHistory, publishHistory, startSimulation, type SimGateway } from './index.js';

const HELP = `Coldwatch gateway simulator (device protocol over MQTT).

  npm run simulate -- --config gateways.json [--url mqtt://localhost:1883] [--interval 10]
  npm run simulate -- --gateways 3 --sensors 4 --secret S [--url …]

  --config FILE     JSON array of {sn, secret, sensors:[{dev, kind:"th"|"t", setpoint}]}:
                    the gateways enrolled in the console, with their secrets
  --gateways N, --sensors M
                    invent N gateways of M sensors (sn SIM000000001…, dev T0000001…),
                    all with --secret; for brokers that do not authenticate, or enrolments made to match
  --url URL         broker (default MQTT_URL or mqtt://localhost:1883)
  --interval S      seconds between samples (default 60)
  --backfill-days D first publish D days of history (default 0)
  --gap-every M     mean minutes between offline gaps (default 120; 0 = none)`;

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    gateways: { type: 'string' },
    sensors: { type: 'string' },
    secret: { type: 'string', default: '' },
    url: { type: 'string', default: process.env.MQTT_URL ?? 'mqtt://localhost:1883' },
    interval: { type: 'string', default: '60' },
    'backfill-days': { type: 'string', default: '0' },
    'gap-every': { type: 'string', default: '120' },
    help: { type: 'boolean', short: 'h' },
  },
});

async function gatewaysFromArgs(): Promise<SimGateway[]> {
  if (values.config) return JSON.parse(await readFile(values.config, 'utf8')) as SimGateway[];
  const n = Number(values.gateways ?? 0);
  const m = Number(values.sensors ?? 4);
  return Array.from({ length: n }, (_, g) => ({
    sn: `SIM${String(g + 1).padStart(9, '0')}`,
    secret: values.secret!,
    sensors: Array.from({ length: m }, (_, s) => ({
      dev: `T${String(g * m + s + 1).padStart(7, '0')}`,
      kind: s % 2 ? ('t' as const) : ('th' as const),
      setpoint: s % 3 === 2 ? -18 : 5,
    })),
  }));
}

async function main() {
  if (values.help) return console.log(HELP);
  const gateways = await gatewaysFromArgs();
  if (!gateways.length) throw new Error('no gateways: pass --config FILE or --gateways N\n\n' + HELP);
  const intervalMs = Number(values.interval) * 1000;
  const days = Number(values['backfill-days']);
  if (days > 0) {
    const to = Date.now();
    for (const gw of gateways) {
      const readings = generateHistory({ sensors: gw.sensors, from: to - days * 86_400_000, to, intervalMs: Math.max(intervalMs, 60_000) });
      readings.sort((a, b) => a.ts - b.ts);
      const messages = await publishHistory({ url: values.url!, gateway: gw, readings });
      console.log(`${gw.sn}: back-filled ${readings.length} readings in ${messages} messages`);
    }
  }
  const sim = startSimulation({ url: values.url!, gateways, intervalMs, gapEveryMs: Number(values['gap-every']) * 60_000, onError: (err, sn) => console.error(`${sn}: ${err.message}`) });
  console.log(`simulating ${gateways.length} gateways, ${gateways.reduce((n, g) => n + g.sensors.length, 0)} sensors, every ${values.interval} s on ${values.url}`);
  const report = setInterval(() => console.log(JSON.stringify(sim.stats)), 60_000);
  const stop = async () => {
    clearInterval(report);
    await sim.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
