import type { BindingRow, ExceptionOut, ReadingOut } from './stream.js';

/*
 * What a remote receives (docs/forwarding.md "Messages"): one JSON object per reading or
 * exception, a hundred of them to an MQTT message and a round's to an HTTP request, as
 * `{"items": [...]}`. `seq` names it within its setting's stream (time in ms and sensor id for a reading,
 * the exception's id), so a receiver drops the duplicate that at-least-once delivery may bring
 * after a reconnect. A platform's identity travels in each message; on HTTP its key signs the request.
 */

const platformOf = (b: BindingRow) => (b.platform ? { code: b.platform.code, vendorCode: b.platform.vendorCode, appId: b.platform.appId } : undefined);

export function readingMessage(b: BindingRow, r: ReadingOut): string {
  const ts = r.ts.getTime();
  return JSON.stringify({
    kind: 'reading',
    seq: `${ts}-${r.sensorId}`,
    carrierId: b.carrierId,
    carrier: b.carrierName,
    sensor: r.devNo,
    ts,
    temp: r.temp,
    hum: r.hum,
    volt: r.volt,
    platform: platformOf(b),
  });
}

export function exceptionMessage(b: BindingRow, e: ExceptionOut): string {
  return JSON.stringify({
    kind: 'exception',
    seq: `ex-${e.id}`,
    carrierId: b.carrierId,
    carrier: b.carrierName,
    sensorId: e.sensorId,
    type: e.type,
    category: e.category,
    startTs: e.startTs.getTime(),
    value: e.firstValue,
    limitMin: e.limitMin,
    limitMax: e.limitMax,
    platform: platformOf(b),
  });
}
