import type { Config } from './config.js';
import type { Db } from './platform/db/client.js';
import { redactUrl } from './platform/net/url.js';
import { DEMO_CUSTOMER, DEMO_ROOT_PASSWORD, FEED_GATEWAY } from './demo/seed.js';

export interface BannerInfo {
  config: Config;
  db: Db;
  /** PGlite's directory (when no DATABASE_URL). */
  dataDir: string;
  port: number;
  httpNote?: string;
  /** The embedded broker's port; undefined with MQTT_URL. */
  mqttPort?: number;
  mqttNote?: string;
  seedNote?: string;
  simulator?: string;
  startupMs: number;
}

/** Where a gateway reaches the broker: the embedded one on this host, or MQTT_URL's host and port. */
export function brokerAddress(config: Config, mqttPort?: number): { host: string; port: number } {
  if (config.mqttUrl) {
    const u = new URL(config.mqttUrl);
    return { host: u.hostname, port: Number(u.port) || (u.protocol === 'mqtts:' ? 8883 : 1883) };
  }
  return { host: 'localhost', port: mqttPort ?? config.mqttPort };
}

/** The lines `npm start` prints once the console is up: where it is, how to log in, how to send a reading. */
export function banner(b: BannerInfo): string {
  const { config } = b;
  const url = (config.publicUrl ?? `http://localhost:${b.port}`).replace(/\/$/, '');
  const broker = brokerAddress(config, b.mqttPort);
  const rows: [string, string][] = [];
  rows.push(['Console', url + (b.httpNote ? `   (${b.httpNote})` : '')]);
  rows.push(['API docs', `${url}/docs   (OpenAPI: ${url}/openapi.json; signed-in)`]);
  rows.push([
    'MQTT',
    config.mqttUrl
      ? `external broker ${redactUrl(config.mqttUrl)}`
      : `embedded broker on port ${b.mqttPort}` + (b.mqttNote ? `   (${b.mqttNote})` : ''),
  ]);
  rows.push([
    'Database',
    b.db.kind === 'pglite' ? `PGlite (embedded PostgreSQL) in ${b.dataDir}` : `PostgreSQL ${redactUrl(config.databaseUrl ?? '')}`,
  ]);
  rows.push([
    'Records',
    config.gxpRecords
      ? 'GxP: readings, exceptions, notices and the audit log are kept at least 5 years'
      : 'NOT FOR GxP RECORDS (GXP_RECORDS=off): records may be kept less than 5 years',
  ]);
  rows.push(['Mail', config.smtpUrl ? `SMTP ${redactUrl(config.smtpUrl)}` : 'SMTP_URL is not set: alarm e-mails are not sent (the notice log shows them as failed)']);
  if (b.seedNote) rows.push(['Demo data', b.seedNote]);
  if (b.simulator) rows.push(['Simulator', b.simulator]);
  rows.push(['Login', config.loginCaptcha ? 'account, password and the code in the picture (LOGIN_CAPTCHA=off drops the code)' : 'account and password (LOGIN_CAPTCHA=off)']);

  const width = Math.max('Demo logins'.length, ...rows.map(([k]) => k.length)) + 3;
  const line = (k: string, v: string) => `  ${k.padEnd(width)}${v}\n`;
  let out = '\n  Coldwatch cold-chain monitoring console is running\n  ' + '─'.repeat(52) + '\n';
  for (const [k, v] of rows) out += line(k, v);

  if (config.demo) {
    out += '\n';
    out += line('Demo logins', `admin / ${DEMO_ROOT_PASSWORD}   platform administrator`);
    out += line('', `${DEMO_CUSTOMER.account}  / ${DEMO_CUSTOMER.password}    customer administrator of ${DEMO_CUSTOMER.name}`);
    out += '\n';
    out += `  Drive the hand-driven gateway ${FEED_GATEWAY.sn} (sensor ${FEED_GATEWAY.dev} on "${FEED_GATEWAY.carrier}", zone 2–8 °C);\n`;
    out += `  a temperature above 8 °C opens an exception and e-mails ${FEED_GATEWAY.email}:\n`;
    const payload = `'{"readings":[{"dev":"${FEED_GATEWAY.dev}","ts":'$(date +%s000)',"temp":9.5,"hum":50}]}'`;
    out += `    mosquitto_pub -h ${broker.host} -p ${broker.port} -i ${FEED_GATEWAY.sn} -u ${FEED_GATEWAY.sn} -P ${FEED_GATEWAY.secret} -t cc/${FEED_GATEWAY.sn}/up/data -q 1 \\\n      -m ${payload}\n`;
    out += `  or over HTTP:\n`;
    out += `    curl -H 'Authorization: Bearer ${FEED_GATEWAY.secret}' -H 'Content-Type: application/json' ${url}/ingest/v1/${FEED_GATEWAY.sn}/data \\\n      -d ${payload}\n`;
  } else {
    out += '\n';
    out += line('Login', 'admin with the ROOT_PASSWORD you set');
  }
  out += `\n  Started in ${(b.startupMs / 1000).toFixed(1)} s. Ctrl-C stops it (ingest drains first).\n\n`;
  return out;
}
