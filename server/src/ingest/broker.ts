import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { IngestService } from './service.js';
import { gatewayRefusal, type GatewayInfo } from './directory.js';
import type { DirectoryEvent } from '../platform/events.js';
import { parseUpTopic } from './protocol.js';
import { reportFailure } from '../platform/db/outage.js';
import { ConnectGate } from './connect-gate.js';

export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

const authError = (msg: string, code: 4 | 5): AuthenticateError => Object.assign(new Error(msg), { returnCode: code }) as AuthenticateError;

/**
 * The embedded MQTT broker. Each gateway logs in as itself (client id = username = sn,
 * password = secret), may publish only under cc/{sn}/up/# and subscribe only to
 * cc/{sn}/down/#. A publish is processed inside authorizePublish: aedes writes the
 * PUBACK only after that callback (lib/handlers/publish.js: authorizePublish, then
 * enqueuePublish writes PubAck), so a QoS 1 message is acked only once committed. While the
 * database is away the message is held (IngestService.held) and acked once stored; any
 * other failed commit answers with an error, which makes aedes drop the connection, and the
 * gateway redelivers the unacked message when it reconnects. A CONNECT that cannot be judged
 * because the database is away is refused with return code 3, server unavailable; a gateway
 * that may not send (its customer cancelled, or itself stopped) with 5, not authorized.
 *
 * Before login a connection is worth nothing to us, so it is allowed little (docs/ingest.md
 * "Limits that keep ingest running"): its first packet may announce at most MAX_CONNECT_BYTES,
 * it has `connectTimeoutMs` to be authenticated, and only `connectingPerAddress` connections of
 * one address are read at once (connect-gate.ts). After login, a gateway over its rate has its
 * messages held (pacer.ts): their PUBACKs wait, aedes reads no more from it meanwhile.
 */
/** The largest MQTT packet the broker reads (docs/ingest.md): a data message of 5,000 readings is about 600 KB. */
export const MAX_PACKET_BYTES = 1024 * 1024;
/** The largest packet read before login: a gateway's CONNECT (ids, a 64-character secret) is under 200 bytes. */
export const MAX_CONNECT_BYTES = 64 * 1024;

export interface BrokerGuard {
  connectTimeoutMs: number;
  connectingPerAddress: number;
  maxConnectBytes: number;
}

interface ParserHost {
  _parser?: { packet: { length: number }; _parseLength: () => boolean };
}

/**
 * Refuses a packet whose announced length exceeds the cap before any of its body is buffered:
 * aedes (through mqtt-packet) would otherwise read a 200 MB CONNECT into memory before asking
 * who sends it. The parser is aedes's own; we look at the length it just read. The cap is
 * `maxBytes()` at that moment: small until the gateway is authenticated.
 */
function capPackets(client: ParserHost, socket: net.Socket, svc: IngestService, maxBytes: () => number) {
  const parser = client?._parser;
  if (!parser) return;
  const readLength = parser._parseLength.bind(parser);
  parser._parseLength = () => {
    const ok = readLength();
    const max = maxBytes();
    if (ok && parser.packet.length > max) {
      // Before login it is anyone's (a flood would flood the log too): counted in /metrics, logged at debug.
      const anonymous = max < MAX_PACKET_BYTES;
      if (anonymous) svc.refusedConnections.too_large++;
      svc.log[anonymous ? 'debug' : 'warn']({ remote: socket.remoteAddress, bytes: parser.packet.length, max }, 'mqtt: packet over the size limit, connection closed');
      socket.destroy();
      return false;
    }
    return ok;
  };
}

export async function startBroker(svc: IngestService, opts: { port: number; host?: string; guard: BrokerGuard }): Promise<EmbeddedBroker> {
  const gateways = new WeakMap<Client, GatewayInfo>();
  const broker = await Aedes.createBroker({
    connectTimeout: opts.guard.connectTimeoutMs,
    authenticate(client, username, password, done) {
      if (!username || client.id !== username) return done(authError('client id must equal username (the gateway sn)', 5), false);
      svc.authenticate(username, password).then(
        (gw) => {
          if (!gw) return done(authError('bad gateway sn or secret', 4), false);
          const refusal = gatewayRefusal(gw);
          if (refusal) {
            svc.refusedConnections.not_authorized++;
            svc.log.debug({ sn: gw.sn, reason: refusal }, 'mqtt: CONNECT refused, the gateway may not send');
            return done(authError(`the gateway may not send (${refusal})`, 5), false);
          }
          gateways.set(client, gw);
          gate.authenticated(client.conn as net.Socket);
          done(null, true);
        },
        (err) => {
          reportFailure(svc.log, err, { sn: username }, 'mqtt: authentication failed on a database error');
          done(Object.assign(err instanceof Error ? err : new Error(String(err)), { returnCode: 3 }) as AuthenticateError, false);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null); // the console's own downlink publishes
      const gw = gateways.get(client);
      const t = parseUpTopic(packet.topic);
      if (!gw || !t || t.sn !== gw.sn) {
        svc.log.warn({ sn: gw?.sn, topic: packet.topic }, 'mqtt: publish outside the gateway\'s own up/ topics refused');
        return callback(new Error('not authorized'));
      }
      svc.noteMessage();
      // Over its rate the gateway's message waits for its turn; through a database outage it is
      // held. Either way its PUBACK waits and the connection stays.
      let charged = false;
      const counted = (readings: number) => {
        if (!charged) svc.pacer.charge(gw, readings);
        charged = true;
      };
      svc.pacer
        .wait(gw, () => client.closed)
        .then(() => {
          if (client.closed) throw new Error('connection closed while the message waited for its turn');
          return svc.held(() => svc.handle(gw, t.kind, packet.payload as Buffer, { counted }));
        })
        .then(
          () => callback(null),
          (err) => callback(err instanceof Error ? err : new Error(String(err))),
        );
    },
    authorizeSubscribe(client, sub, callback) {
      const gw = gateways.get(client);
      const own = gw && (sub.topic === `cc/${gw.sn}/down/#` || sub.topic.startsWith(`cc/${gw.sn}/down/`));
      if (!own) svc.log.warn({ sn: gw?.sn, topic: sub.topic }, 'mqtt: subscription outside the gateway\'s own down/ topics refused');
      callback(null, own ? sub : null);
    },
  });
  broker.on('clientError', (client, err) => svc.log.debug({ sn: client?.id, err: err.message }, 'mqtt: client error'));

  const connected = new Set<Client>();
  broker.on('client', (client) => connected.add(client));
  broker.on('clientDisconnect', (client) => connected.delete(client));

  // A reset secret, a deleted gateway or a cancelled customer ends the open sessions it names:
  // the gateway must connect again, and its credentials are judged anew.
  const onDirectory = (e: DirectoryEvent) => {
    if (!e.close) return;
    const sns = new Set(e.gateways ?? []);
    for (const client of connected) {
      const gw = gateways.get(client);
      if (!gw || !(sns.has(gw.sn) || (e.customerId !== undefined && gw.customerId === e.customerId))) continue;
      svc.log.info({ sn: gw.sn }, 'mqtt: session closed, the gateway\'s credentials changed');
      client.close();
    }
  };
  svc.bus.on('directory', onDirectory);

  svc.setHolding(true);
  const { connectTimeoutMs, connectingPerAddress, maxConnectBytes } = opts.guard;
  const gate = new ConnectGate(
    { perAddress: connectingPerAddress, timeoutMs: connectTimeoutMs },
    (socket) => {
      const client = broker.handle(socket);
      capPackets(client as unknown as ParserHost, socket, svc, () => (gateways.has(client) ? MAX_PACKET_BYTES : maxConnectBytes));
    },
    () => svc.refusedConnections.timeout++,
  );
  // Paused: a connection waiting for its address's turn is not read at all (connect-gate.ts).
  const server = net.createServer({ pauseOnConnect: true }, (socket) => gate.accept(socket));
  // aedes.close() closes only clients that finished CONNECT; a socket still authenticating
  // would keep server.close() waiting, so every socket is tracked and destroyed at the end.
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port, host: opts.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;

  svc.setDownlink(
    (sn, kind, payload) =>
      new Promise<void>((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic: `cc/${sn}/down/${kind}`, payload: Buffer.from(JSON.stringify(payload)), qos: 1, retain: false, dup: false }, (err) =>
          err ? reject(err) : resolve(),
        ),
      ),
  );

  return {
    port,
    async close() {
      svc.bus.off('directory', onDirectory);
      svc.setDownlink(null);
      svc.setHolding(false);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
