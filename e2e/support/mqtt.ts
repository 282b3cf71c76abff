import mqtt from 'mqtt';

/** The hand-driven demo gateway of the README: publishes like a real gateway, QoS 1. */
export const FEED = { sn: 'DEMO0000FEED', secret: 'feedfeed', dev: 'T9000001' } as const;

/** One reading from a gateway (client id = username = its sn, as the device protocol requires), QoS 1. */
export async function publishFrom(mqttPort: number, gw: { sn: string; secret: string; dev: string }, reading: { ts?: number; temp?: number; hum?: number }) {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: gw.sn,
    username: gw.sn,
    password: gw.secret,
    reconnectPeriod: 0,
  });
  try {
    const payload = JSON.stringify({ readings: [{ dev: gw.dev, ts: reading.ts ?? Date.now(), temp: reading.temp, hum: reading.hum }] });
    // QoS 1: the broker acks only after the console committed the reading.
    await client.publishAsync(`cc/${gw.sn}/up/data`, payload, { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

export const publishReading = (mqttPort: number, reading: { ts?: number; temp?: number; hum?: number }) => publishFrom(mqttPort, FEED, reading);
