/**
 * Alarm latency while readings flow: gateways publish at a steady rate (RATE readings/s) and,
 * every round, one sensor that has not yet been out of range reports 9.5 °C against its
 * carrier's 2–8 °C zone. Latency is from that publish to the alarm e-mail arriving at a real
 * SMTP server (publish → ingest commit → exception committed → notice → SMTP) and, with an SMS
 * sink, to its SMS arriving at the webhook (a real HTTP server): per excursion the later of the two,
 * after a warm-up second of the same load whose excursions are not counted: the first alarm
 * mails of a process open the SMTP pool's connections (each waits for the server's greeting,
 * ~130 ms here), a cost paid once after a start, not at every alarm.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { startSmtp } from '../../e2e/support/smtp.js';
import type { Bus } from '../../server/src/platform/events.js';

export interface LatencyFixture {
  gateways: { sn: string; secret: string; sensors: { id: number; dev: string }[] }[];
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

export async function measureAlarmLatency(
  url: string,
  f: LatencyFixture,
  smtp: Awaited<ReturnType<typeof startSmtp>>,
  /** The SMS provider's webhook sink (its requests' bodies name the carrier, here the device), when the trigger sends SMS too. */
  sms: { requests: readonly { body: string; at: number }[] } | null,
  /** warmupS: seconds of the same load first, excursions included, not measured (the SMTP pool opens its connections then). */
  opts: { rate: number; seconds: number; warmupS?: number },
  /** The console's bus: where each excursion's reading commit and exception commit are seen, for the breakdown. */
  bus?: Bus,
): Promise<{
  /** Per excursion, publish → the last of its notices accepted (mail, and SMS with a sink). */
  latencies: number[];
  /** Publish → mail at SMTP, and publish → SMS at the webhook. */
  mail: number[];
  sms: number[];
  excursions: number;
  readings: number;
  stages: { committed: number[]; evaluated: number[]; mailed: number[] };
  /** The excursion whose mail came last (its device and delay), and those with none within 30 s. */
  slowest: { dev: string; ms: number } | null;
  missing: string[];
}> {
  const perRound = f.gateways.reduce((n, g) => n + g.sensors.length, 0);
  const roundMs = (perRound / opts.rate) * 1000;
  const warm = Math.floor(((opts.warmupS ?? 1) * 1000) / roundMs);
  const rounds = warm + Math.floor((opts.seconds * 1000) / roundMs);
  const clients: MqttClient[] = await Promise.all(f.gateways.map((gw) => mqtt.connectAsync(url, { clientId: gw.sn, username: gw.sn, password: gw.secret, protocolVersion: 4 })));
  const sent = new Map<string, number>();
  const all = f.gateways.flatMap((g) => g.sensors.map((s) => s.dev));
  const devOf = new Map(f.gateways.flatMap((g) => g.sensors.map((s) => [s.id, s.dev] as const)));
  const committedAt = new Map<string, number>();
  const openedAt = new Map<string, number>();
  const onReading = (e: { sensorId: number; temp: number | null }) => {
    const dev = devOf.get(e.sensorId);
    if (dev && e.temp === 9.5 && !committedAt.has(dev)) committedAt.set(dev, Date.now());
  };
  const onException = (e: { sensorId: number | null; ongoing: boolean }) => {
    const dev = e.sensorId === null ? undefined : devOf.get(e.sensorId);
    if (dev && !openedAt.has(dev)) openedAt.set(dev, Date.now());
  };
  bus?.on('reading', onReading);
  bus?.on('exception', onException);
  let readings = 0;
  const t0 = performance.now();
  const pending: Promise<unknown>[] = [];
  let last = 0;
  for (let r = 0; r < rounds; r++) {
    const hot = all[r % all.length];
    // Each round its own time: a loop behind schedule runs rounds within one millisecond, and a
    // sensor's second reading at the same time is the same reading to the console (stored once).
    const ts = (last = Math.max(Date.now(), last + 1));
    for (const [g, gw] of f.gateways.entries()) {
      const payload = JSON.stringify({ readings: gw.sensors.map((s) => ({ dev: s.dev, ts, temp: s.dev === hot ? 9.5 : 5 + (r % 10) / 10, hum: 50 })) });
      if (r >= warm && gw.sensors.some((s) => s.dev === hot)) sent.set(hot, Date.now());
      pending.push(clients[g].publishAsync(`cc/${gw.sn}/up/data`, payload, { qos: 1 }));
      readings += gw.sensors.length;
    }
    const wait = t0 + (r + 1) * roundMs - performance.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  await Promise.all(pending);
  // Each excursion's e-mail (and SMS) names its device; wait for all of them (or give up after 30 s).
  const deadline = Date.now() + 30_000;
  const mailAt = new Map<string, number>();
  const smsAt = new Map<string, number>();
  const seen = { mail: 0, sms: 0 };
  const match = (text: string, at: number, into: Map<string, number>) => {
    for (const dev of sent.keys()) if (!into.has(dev) && text.includes(dev)) into.set(dev, at);
  };
  const got = new Map<string, number>();
  while (got.size < sent.size && Date.now() < deadline) {
    for (; seen.mail < smtp.mails.length; seen.mail++) match(smtp.mails[seen.mail].text + smtp.mails[seen.mail].subject, smtp.mails[seen.mail].at, mailAt);
    for (; sms && seen.sms < sms.requests.length; seen.sms++) match(sms.requests[seen.sms].body, sms.requests[seen.sms].at, smsAt);
    for (const [dev, at] of mailAt) if (!got.has(dev) && (!sms || smsAt.has(dev))) got.set(dev, Math.max(at, smsAt.get(dev) ?? 0));
    await new Promise((res) => setTimeout(res, 5));
  }
  await Promise.all(clients.map((c) => c.endAsync()));
  bus?.off('reading', onReading);
  bus?.off('exception', onException);
  const latencies = [...got].map(([dev, at]) => at - sent.get(dev)!);
  // Reported, not thrown: on a busy machine a mail may come late (a retry), and the run says
  // which excursion was slowest and how many attempts its notice took (ingest.bench.ts).
  const missing = [...sent.keys()].filter((dev) => !got.has(dev));
  let slowest: { dev: string; ms: number } | null = null;
  for (const [dev, at] of got) if (!slowest || at - sent.get(dev)! > slowest.ms) slowest = { dev, ms: at - sent.get(dev)! };
  // Where each excursion's time went: publish → readings committed → exception committed → mail at SMTP.
  const stages = { committed: [] as number[], evaluated: [] as number[], mailed: [] as number[] };
  for (const [dev, at] of got) {
    const c = committedAt.get(dev);
    const o = openedAt.get(dev);
    if (c === undefined || o === undefined) continue;
    stages.committed.push(c - sent.get(dev)!);
    stages.evaluated.push(o - c);
    stages.mailed.push(at - o);
  }
  const since = (m: Map<string, number>) => [...m].filter(([dev]) => sent.has(dev)).map(([dev, at]) => at - sent.get(dev)!);
  return { latencies, mail: since(mailAt), sms: since(smsAt), excursions: sent.size, readings, stages, slowest, missing };
}
