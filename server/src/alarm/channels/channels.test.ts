import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb } from '../../../test/db.js';
import type { Db } from '../../platform/db/client.js';
import { backoffMs, createNotifier, NOTICE_MAX_ATTEMPTS, type NotifierOptions } from '../notifier.js';
import type { ChannelConfig } from './index.js';
import { startAlarm } from '../index.js';
import { loadConfig } from '../../config.js';
import { Bus } from '../../platform/events.js';
import { aliyunSignature } from './aliyun.js';
import { fakeProvider, type FakeRequest } from './fakes.js';

/**
 * Every channel through the notifier against real HTTP servers in this process: the webhook
 * provider, Alibaba Cloud's SMS and voice APIs (a local fake that checks the signature its own
 * way), and each way a provider misbehaves: 5xx, timeout, 4xx, a hang that must hold up nothing else.
 */

let db: Db;
let drop: () => Promise<void>;
let customerId: number;
let skip = 0;
const clock = () => Date.now() + skip;

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  customerId = (await db.one<{ id: number }>(`INSERT INTO customer (name, code) VALUES ('Gamma Pharmacy', 'GAMMA') RETURNING id`))!.id;
}, 120_000);
afterAll(async () => drop?.());

async function notice(channel: string, recipient: string, content = 'Fridge 3 at 9.5 °C') {
  return (await db.one<{ id: number }>(
    `INSERT INTO notice_log (customer_id, type, channel, recipient, subject, content) VALUES ($1, 'alarm', $2, $3, 'Alarm', $4) RETURNING id`,
    [customerId, channel, recipient, content],
  ))!.id;
}
const row = async (id: number) => (await db.one<{ status: number; attempts: number; result: string; next_attempt_at: Date }>(`SELECT * FROM notice_log WHERE id = $1`, [id]))!;

/** One pass of a notifier on `config`, to every outcome. */
async function run(config: Partial<ChannelConfig>, opts: Partial<NotifierOptions> = {}) {
  const n = createNotifier(db, { mailFrom: 'alarm@cold.test', noticeHttpTimeoutMs: 2_000, ...config }, { now: clock, ...opts });
  try {
    await n.pass();
    await n.idle();
  } finally {
    n.close();
  }
}

describe('webhook provider', () => {
  it('posts the notice as JSON with its id as idempotency key and a signature the gateway can check', async () => {
    const sink = await fakeProvider(() => ({ status: 200, body: '{"queued":1}' }));
    try {
      const id = await notice('sms', '+8613800000001', 'Line one "quoted"\nline two');
      await run({ sms: { url: `${sink.url}/sms`, secret: 's3cret' } });
      expect(await row(id)).toMatchObject({ status: 1, attempts: 1, result: 'HTTP 200: {"queued":1}' });
      const [r] = sink.requests;
      expect(r.url).toBe('/sms');
      expect(JSON.parse(r.body)).toEqual({ id, to: '+8613800000001', subject: 'Alarm', text: 'Line one "quoted"\nline two' });
      expect(r.headers['idempotency-key']).toBe(`coldwatch-notice-${id}`);
      const expected = createHmac('sha256', 's3cret').update(`${r.headers['x-coldwatch-timestamp']}.${r.body}`).digest('hex');
      expect(r.headers['x-coldwatch-signature']).toBe(`sha256=${expected}`);
    } finally {
      await sink.close();
    }
  });

  it('fills a form body template for gateways that take forms, and sends voice the same way', async () => {
    const sink = await fakeProvider();
    try {
      const id = await notice('voice', '13800000002', 'Freezer & cold room');
      await run({ voice: { url: sink.url, body: 'mobile={{to}}&msg={{text}}&ref={{id}}' } });
      expect((await row(id)).status).toBe(1);
      expect(sink.requests[0].headers['content-type']).toContain('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(sink.requests[0].body))).toEqual({ mobile: '13800000002', msg: 'Freezer & cold room', ref: String(id) });
      expect(sink.requests[0].headers['x-coldwatch-signature']).toBeUndefined();
    } finally {
      await sink.close();
    }
  });
});

describe('a notice written within the millisecond of the pass', () => {
  it('is due: the database writes microseconds, the pass reads the clock in milliseconds', async () => {
    const sink = await fakeProvider();
    try {
      const id = await notice('sms', '+8613800000003');
      // Written half a millisecond into the millisecond in which the pass runs.
      const at = Date.parse('2026-11-27T10:00:00.000Z');
      await db.query(`UPDATE notice_log SET next_attempt_at = '2026-11-27 10:00:00.0005+00' WHERE id = $1`, [id]);
      await run({ sms: { url: sink.url } }, { now: () => at });
      expect(await row(id)).toMatchObject({ status: 1, attempts: 1 });
      // A notice due later is not taken early: the bound is that one millisecond.
      const later = await notice('sms', '+8613800000004');
      await db.query(`UPDATE notice_log SET next_attempt_at = '2026-11-27 10:00:00.0015+00' WHERE id = $1`, [later]);
      await run({ sms: { url: sink.url } }, { now: () => at });
      expect(await row(later)).toMatchObject({ status: 0, attempts: 0 });
      await db.query(`UPDATE notice_log SET status = 3 WHERE id = $1`, [later]);
    } finally {
      await sink.close();
    }
  });
});

describe('a provider that misbehaves', () => {
  it('answering 5xx: retried within seconds, then with back-off, and failed with its reason after the last attempt', async () => {
    const sink = await fakeProvider(() => ({ status: 503, body: 'gateway overloaded' }));
    try {
      const id = await notice('sms', '+8613800000003');
      const before = clock();
      await run({ sms: { url: sink.url } });
      const first = await row(id);
      expect(first).toMatchObject({ status: 0, attempts: 1, result: 'HTTP 503: gateway overloaded' });
      // The first retry is seconds away, not half a minute.
      expect(first.next_attempt_at.getTime() - before).toBeLessThanOrEqual(backoffMs(1) + 1_000);
      expect(backoffMs(1)).toBeLessThanOrEqual(5_000);
      for (let i = 2; i <= NOTICE_MAX_ATTEMPTS; i++) {
        skip += backoffMs(i - 1);
        await run({ sms: { url: sink.url } });
      }
      expect(await row(id)).toMatchObject({ status: 2, attempts: NOTICE_MAX_ATTEMPTS, result: `gave up after ${NOTICE_MAX_ATTEMPTS} attempts: HTTP 503: gateway overloaded` });
      expect(sink.requests).toHaveLength(NOTICE_MAX_ATTEMPTS);
      // The waits grow: seconds first, then minutes, capped at an hour.
      expect(backoffMs(2)).toBeLessThan(backoffMs(6));
      expect(backoffMs(40)).toBe(3_600_000);
    } finally {
      await sink.close();
    }
  });

  it('answering 4xx (a bad number): failed at once with its reason', async () => {
    const sink = await fakeProvider(() => ({ status: 400, body: '{"error":"invalid number"}' }));
    try {
      const id = await notice('sms', '123');
      await run({ sms: { url: sink.url } });
      expect(await row(id)).toMatchObject({ status: 2, attempts: 1, result: 'HTTP 400: {"error":"invalid number"}' });
      // 429 is throttling, not a refusal: retried.
      sink.answer = () => ({ status: 429, body: 'slow down' });
      const throttled = await notice('sms', '+8613800000004');
      await run({ sms: { url: sink.url } });
      expect(await row(throttled)).toMatchObject({ status: 0, attempts: 1, result: 'HTTP 429: slow down' });
    } finally {
      await sink.close();
    }
  });

  it('timing out: retried, and holding up neither the other channels nor later notices of its own', async () => {
    const slow = await fakeProvider(() => 'hang');
    const fast = await fakeProvider();
    try {
      const hung = await notice('voice', '+8613800000005');
      const sms = await notice('sms', '+8613800000006');
      const n = createNotifier(db, { mailFrom: 'alarm@cold.test', noticeHttpTimeoutMs: 60_000, voice: { url: slow.url }, sms: { url: fast.url } }, { now: clock, batch: 1 });
      try {
        await n.pass();
        // The SMS is delivered while the voice call still hangs.
        await vi.waitFor(async () => expect((await row(sms)).status).toBe(1), { timeout: 10_000 });
        expect((await row(hung)).status).toBe(0);
        expect(n.busy()).toBe(true);
        // Its one slot (batch 1) taken, the voice channel claims nothing more; the next SMS goes.
        const later = await notice('voice', '+8613800000007');
        const sms2 = await notice('sms', '+8613800000008');
        await n.pass();
        await vi.waitFor(async () => expect((await row(sms2)).status).toBe(1), { timeout: 10_000 });
        expect((await row(later)).attempts).toBe(0);
        slow.release();
        await n.idle();
      } finally {
        n.close();
      }
      // A provider silent past the deadline: a temporary failure with the reason.
      slow.answer = () => 'hang';
      const late = await notice('voice', '+8613800000009');
      await run({ voice: { url: slow.url }, noticeHttpTimeoutMs: 300 });
      expect(await row(late)).toMatchObject({ status: 0, attempts: 1, result: 'no answer within 300 ms' });
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 60_000);

  it('a failed first try is retried by the running console on its own, seconds later, without the retry job', async () => {
    let calls = 0;
    // Only this test's notice counts: another test's row due meanwhile may reach the sink too.
    const sink = await fakeProvider((r) => (r.body.includes('+8613800000020') && ++calls === 1 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' }));
    // The real clock (no `now`), polling off as in the console: only the notifier's own retry timer can send it again.
    const alarm = startAlarm({ db, bus: new Bus(), config: loadConfig({ VITEST: '1', SMS_URL: sink.url } as NodeJS.ProcessEnv), log: { error() {}, warn() {} } }, { noticePoll: false, pollMs: 600_000 });
    try {
      const id = await notice('sms', '+8613800000020');
      await alarm.sweepNotices();
      await vi.waitFor(async () => expect(await row(id)).toMatchObject({ attempts: 1 }), { timeout: 10_000 });
      await vi.waitFor(async () => expect(await row(id)).toMatchObject({ status: 1, attempts: 2, result: 'HTTP 200: ok' }), { timeout: 20_000, interval: 200 });
      expect(calls).toBe(2);
    } finally {
      await alarm.stop();
      await sink.close();
    }
  }, 40_000);

  it('a channel without a provider fails its rows visibly', async () => {
    const sms = await notice('sms', '+8613800000010');
    const voice = await notice('voice', '+8613800000011');
    await run({});
    expect(await row(sms)).toMatchObject({ status: 2, result: 'SMS_URL not configured' });
    expect(await row(voice)).toMatchObject({ status: 2, result: 'VOICE_URL not configured' });
  });
});

/** Aliyun's check of a request, written from the published steps rather than with the sender's code. */
function aliyunVerifies(r: FakeRequest, secret: string): Record<string, string> | null {
  const params = Object.fromEntries(new URLSearchParams(r.body));
  const { Signature, ...rest } = params;
  const enc = (s: string) => encodeURIComponent(s).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~').replace(/[!'()]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const canonical = Object.keys(rest).sort().map((k) => `${enc(k)}=${enc(rest[k])}`).join('&');
  const mac = createHmac('sha1', `${secret}&`).update(`POST&%2F&${enc(canonical)}`).digest('base64');
  return mac === Signature ? params : null;
}

describe('Alibaba Cloud SMS and voice', () => {
  it('signs as published (the documented example)', () => {
    // help.aliyun.com, SMS "signature method": the GET example with testId / testSecret.
    const params = {
      AccessKeyId: 'testId', Action: 'SendSms', Format: 'XML', OutId: '123', PhoneNumbers: '15300000001', RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用', SignatureMethod: 'HMAC-SHA1', SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466', SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007', TemplateParam: '{"customer":"test"}', Timestamp: '2017-07-12T02:42:19Z', Version: '2017-05-25',
    };
    expect(aliyunSignature('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('sends an SMS with its template, the text as its variable and the notice id as OutId; a refused number fails at once', async () => {
    const api = await fakeProvider((r) => {
      const p = aliyunVerifies(r, 'key-secret');
      if (!p) return { status: 400, body: '{"Code":"SignatureDoesNotMatch","Message":"Specified signature is not matched"}' };
      if (p.PhoneNumbers === '000') return { status: 200, body: '{"Code":"isv.MOBILE_NUMBER_ILLEGAL","Message":"invalid mobile number"}' };
      if (p.PhoneNumbers === '111') return { status: 200, body: '{"Code":"isp.SYSTEM_ERROR","Message":"system error"}' };
      return { status: 200, body: '{"Code":"OK","Message":"OK","BizId":"900619746936498440^0","RequestId":"F655A8D5"}' };
    });
    try {
      const url = `aliyun+http://LTAIkey:key-secret@127.0.0.1:${api.port}?signName=${encodeURIComponent('冷链监测')}&templateCode=SMS_100&param=msg`;
      const ok = await notice('sms', '13800000012', '冷库一号 温度超过上限 9.5°C');
      const bad = await notice('sms', '000');
      const busy = await notice('sms', '111');
      await run({ sms: { url } });
      expect(await row(ok)).toMatchObject({ status: 1, result: 'OK 900619746936498440^0' });
      const sent = Object.fromEntries(new URLSearchParams(api.requests.find((r) => r.body.includes('13800000012'))!.body));
      expect(sent).toMatchObject({ Action: 'SendSms', SignName: '冷链监测', TemplateCode: 'SMS_100', OutId: String(ok), AccessKeyId: 'LTAIkey', SignatureVersion: '1.0' });
      expect(JSON.parse(sent.TemplateParam)).toEqual({ msg: '冷库一号 温度超过上限 9.5°C' });
      expect(await row(bad)).toMatchObject({ status: 2, attempts: 1, result: 'isv.MOBILE_NUMBER_ILLEGAL: invalid mobile number' });
      expect(await row(busy)).toMatchObject({ status: 0, attempts: 1, result: 'isp.SYSTEM_ERROR: system error' });

      // A wrong secret: the API's 400 fails the row at once, with its reason.
      const wrong = await notice('sms', '13800000013');
      await run({ sms: { url: url.replace('key-secret', 'other') } });
      expect(await row(wrong)).toMatchObject({ status: 2, result: 'SignatureDoesNotMatch: Specified signature is not matched' });
    } finally {
      await api.close();
    }
  });

  it('places a text-to-speech call through the voice API', async () => {
    const api = await fakeProvider((r) => (aliyunVerifies(r, 'v-secret') ? { status: 200, body: '{"Code":"OK","CallId":"116012354148^10281378"}' } : { status: 400, body: '{"Code":"SignatureDoesNotMatch"}' }));
    try {
      const id = await notice('voice', '13800000014', 'Fridge 3 is too warm');
      await run({ voice: { url: `aliyun+http://vkey:v-secret@127.0.0.1:${api.port}?calledShowNumber=057188773344&ttsCode=TTS_10001` } });
      expect(await row(id)).toMatchObject({ status: 1, result: 'OK 116012354148^10281378' });
      const p = Object.fromEntries(new URLSearchParams(api.requests[0].body));
      expect(p).toMatchObject({ Action: 'SingleCallByTts', CalledNumber: '13800000014', CalledShowNumber: '057188773344', TtsCode: 'TTS_10001', OutId: String(id) });
      expect(JSON.parse(p.TtsParam)).toEqual({ content: 'Fridge 3 is too warm' });
    } finally {
      await api.close();
    }
  });
});
