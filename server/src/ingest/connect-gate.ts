import net from 'node:net';

export interface ConnectGateOptions {
  /** Connections of one address that may be between accept and an accepted CONNECT at once. */
  perAddress: number;
  /** From accept to an accepted CONNECT, the wait for a free slot included. */
  timeoutMs: number;
}

/**
 * The address a connection counts against: an IPv4 address, or the /64 network of an IPv6 one
 * (one subscriber holds a whole /64, so counting single IPv6 addresses would limit nothing).
 */
export function addressKey(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!net.isIPv6(address)) return address;
  const [head, tail = ''] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

interface Entry {
  key: string;
  /** Handed to the broker, so holding one of its address's slots. */
  admitted: boolean;
  /** Authenticated or closed: no longer counted, no longer timed. */
  done: boolean;
  timer: NodeJS.Timeout;
}

/**
 * The embedded broker's door, before any byte of a connection is read. A connection counts
 * against its address from accept until its CONNECT is accepted; at most `perAddress` of them
 * are handed to the broker at once, the others wait unread (accepted paused: their bytes stay
 * in the kernel, not in our heap) until a slot frees, so a reconnect storm from behind one NAT
 * still gets in while a thousand half-sent CONNECTs from one host cost no more than
 * `perAddress` of them. Whatever has not been authenticated within `timeoutMs` of its accept,
 * waiting included, is closed.
 */
export class ConnectGate {
  private connecting = new Map<string, number>();
  private queued = new Map<string, net.Socket[]>();
  private entries = new WeakMap<net.Socket, Entry>();

  constructor(
    private readonly opts: ConnectGateOptions,
    /** Hands a connection to the broker (it starts reading it). */
    private readonly start: (socket: net.Socket) => void,
    private readonly timedOut: () => void = () => undefined,
  ) {}

  /** A new connection, accepted with pauseOnConnect. */
  accept(socket: net.Socket) {
    const key = addressKey(socket.remoteAddress);
    if (!key) return void socket.destroy();
    const timer = setTimeout(() => {
      this.timedOut();
      socket.destroy();
    }, this.opts.timeoutMs).unref();
    const entry: Entry = { key, admitted: false, done: false, timer };
    this.entries.set(socket, entry);
    socket.once('close', () => this.closed(socket));
    if ((this.connecting.get(key) ?? 0) < this.opts.perAddress) return this.admit(socket, entry);
    const line = this.queued.get(key);
    if (line) line.push(socket);
    else this.queued.set(key, [socket]);
  }

  /** Its CONNECT was accepted: the connection no longer counts against its address. */
  authenticated(socket: net.Socket) {
    const e = this.entries.get(socket);
    if (!e || e.done) return;
    e.done = true;
    clearTimeout(e.timer);
    this.free(e.key);
  }

  private closed(socket: net.Socket) {
    const e = this.entries.get(socket);
    if (!e || e.done) return;
    e.done = true;
    clearTimeout(e.timer);
    if (e.admitted) return this.free(e.key);
    const line = this.queued.get(e.key);
    const i = line?.indexOf(socket) ?? -1;
    if (i >= 0) line!.splice(i, 1);
    if (line && !line.length) this.queued.delete(e.key);
  }

  private admit(socket: net.Socket, e: Entry) {
    e.admitted = true;
    this.connecting.set(e.key, (this.connecting.get(e.key) ?? 0) + 1);
    this.start(socket);
  }

  private free(key: string) {
    const n = (this.connecting.get(key) ?? 1) - 1;
    if (n > 0) this.connecting.set(key, n);
    else this.connecting.delete(key);
    const line = this.queued.get(key);
    while (line?.length && (this.connecting.get(key) ?? 0) < this.opts.perAddress) {
      const next = line.shift()!;
      const e = this.entries.get(next);
      if (e && !e.done && !next.destroyed) this.admit(next, e);
    }
    if (line && !line.length) this.queued.delete(key);
  }
}
