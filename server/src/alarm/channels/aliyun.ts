import { createHmac, randomUUID } from 'node:crypto';
import { callProvider, refused } from './http.js';
import { SendError, type Outgoing, type Sender } from './types.js';

/**
 * Alibaba Cloud's SMS (Dysmsapi SendSms) and voice (Dyvmsapi SingleCallByTts), the providers
 * cold-chain consoles in China send alarms through, on their published RPC API (no SDK):
 * form-encoded POST, signature version 1.0 (HMAC-SHA1 over the sorted, percent-encoded
 * parameters, the key being the AccessKey secret and "&").
 *
 *   SMS_URL=aliyun://<AccessKeyId>:<AccessKeySecret>@dysmsapi.aliyuncs.com?signName=<sign>&templateCode=SMS_123&param=content
 *   VOICE_URL=aliyun://<AccessKeyId>:<AccessKeySecret>@dyvmsapi.aliyuncs.com?calledShowNumber=<number>&ttsCode=TTS_123&param=content
 *
 * Aliyun sends only approved templates: the notice's text goes into the template's variable
 * `param` (default `content`). `aliyun+http://` talks plain HTTP (a local fake in the tests).
 * The notice's id goes as `OutId`, Aliyun's field for the caller's own key (it comes back in
 * the delivery receipts), and as an Idempotency-Key header like the other HTTP providers.
 */

/** RFC 3986 as Aliyun asks: only A-Z a-z 0-9 - _ . ~ stay as they are; a space is %20. */
export const percentEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature of an RPC request's parameters (Signature itself excluded), as published. */
export function aliyunSignature(method: 'GET' | 'POST', params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k])}`)
    .join('&');
  const toSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign, 'utf8').digest('base64');
}

/** Codes that waiting may cure: Aliyun's own faults (isp.*), throttling and flow control. */
const temporaryCode = (code: string) => /^(isp\.|Throttling|ServiceUnavailable|InternalError)/.test(code) || code === 'isv.BUSINESS_LIMIT_CONTROL';

/** 2017-07-12T02:42:19Z: UTC without milliseconds. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function aliyunSender(channel: 'sms' | 'voice', url: string, opts: { timeoutMs: number; now: () => number }): Sender {
  const u = new URL(url);
  const key = decodeURIComponent(u.username);
  const secret = decodeURIComponent(u.password);
  const q = u.searchParams;
  const endpoint = `${u.protocol === 'aliyun+http:' ? 'http' : 'https'}://${u.host}/`;
  const param = q.get('param') || 'content';
  if (!key || !secret) throw new Error(`${channel.toUpperCase()}_URL: aliyun:// needs the AccessKey id and secret as its user and password`);
  const fixed: Record<string, string> =
    channel === 'sms'
      ? { Action: 'SendSms', Version: '2017-05-25', SignName: q.get('signName') ?? '', TemplateCode: q.get('templateCode') ?? '' }
      : { Action: 'SingleCallByTts', Version: '2017-05-25', CalledShowNumber: q.get('calledShowNumber') ?? '', TtsCode: q.get('ttsCode') ?? '' };
  return {
    async send(n: Outgoing) {
      const params: Record<string, string> = {
        ...fixed,
        AccessKeyId: key,
        Format: 'JSON',
        RegionId: q.get('region') || 'cn-hangzhou',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        Timestamp: timestamp(opts.now()),
        OutId: String(n.id),
        ...(channel === 'sms'
          ? { PhoneNumbers: n.to, TemplateParam: JSON.stringify({ [param]: n.text }) }
          : { CalledNumber: n.to, TtsParam: JSON.stringify({ [param]: n.text }) }),
      };
      const body = Object.entries({ ...params, Signature: aliyunSignature('POST', params, secret) })
        .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
        .join('&');
      const res = await callProvider(
        endpoint,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': `coldwatch-notice-${n.id}` }, body },
        opts.timeoutMs,
        true,
      );
      let answer: { Code?: string; Message?: string; BizId?: string; CallId?: string };
      try {
        answer = JSON.parse(res.text);
      } catch {
        return res.status < 300 ? `HTTP ${res.status}` : refused(res.status, res.text);
      }
      const code = answer.Code ?? '';
      if (code === 'OK') return `OK ${answer.BizId ?? answer.CallId ?? ''}`.trim();
      throw new SendError(`${code}: ${answer.Message ?? ''}`.slice(0, 400), !temporaryCode(code));
    },
  };
}
