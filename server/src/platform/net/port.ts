import net from 'node:net';

const isFree = (port: number, host?: string) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host, exclusive: true }, () => s.close(() => resolve(true)));
  });

/**
 * The port to listen on: the requested one when free; when it is taken, a free one if the
 * port was only our default (this machine already runs Mosquitto on 1883), or a clear error
 * if the user chose it.
 */
export async function choosePort(requested: number, explicit: boolean, what: string): Promise<{ port: number; note?: string }> {
  if (requested === 0 || (await isFree(requested))) return { port: requested };
  if (explicit) throw new Error(`${what} port ${requested} is already in use. Free it or choose another port.`);
  for (let p = requested + 1; p < requested + 100; p++) {
    if (await isFree(p)) return { port: p, note: `${what}: default port ${requested} is taken, using ${p} instead` };
  }
  return { port: 0, note: `${what}: default port ${requested} is taken, using a random free port` };
}
