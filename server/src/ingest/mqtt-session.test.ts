import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { Aedes } from 'aedes';
import { MqttSession } from './mqtt-session.js';

describe('the console\'s MQTT session', () => {
  it('speaks MQTT 3.1.1 to a broker that refuses MQTT 5, and still takes and acknowledges messages', async () => {
    // aedes speaks 3.1.1 only: it answers a version-5 CONNECT with "unacceptable protocol version".
    const broker = await Aedes.createBroker();
    const server = net.createServer((s) => broker.handle(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const got: string[] = [];
    const states: string[] = [];
    const session = new MqttSession({
      url: `mqtt://127.0.0.1:${port}`,
      clientId: 'cw-session-test',
      topic: 'cc/+/up/#',
      handle: async (topic, payload) => void got.push(`${topic} ${payload}`),
      onState: (up, cause) => states.push(up ? 'up' : `down: ${cause}`),
    });
    try {
      await session.start();
      for (let i = 0; i < 50 && !session.up; i++) await new Promise((r) => setTimeout(r, 50));
      expect(session.up).toBe(true);
      expect(session.protocolVersion).toBe(4);
      expect(states[0]).toMatch(/does not speak MQTT 5/);
      await new Promise<void>((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic: 'cc/GW1/up/data', payload: Buffer.from('{"readings":[]}'), qos: 1, retain: false, dup: false }, (err) => (err ? reject(err) : resolve())),
      );
      for (let i = 0; i < 50 && !got.length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(got).toEqual(['cc/GW1/up/data {"readings":[]}']);
    } finally {
      await session.close();
      await new Promise<void>((r) => broker.close(() => r()));
      server.close();
    }
  });
});
