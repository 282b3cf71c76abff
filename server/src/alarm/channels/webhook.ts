import { createHmac } from 'node:crypto';
import { callProvider } from './http.js';
import type { Outgoing, Sender } from './types.js';

/**
 * The provider that works with any SMS or voice gateway: a POST of the notice to a URL.
 *
 * Body: a template with {{id}}, {{to}}, {{subject}} and {{text}}. A template that starts with
 * `{` or `[` is JSON and each placeholder becomes a JSON string literal (quotes included), so
 * no text can break the document; any other template is a form body and each placeholder is
 * URL-encoded. Headers: `Idempotency-Key` (the notice's id: a gateway that keeps them drops the
 * second copy of a notice sent twice, delivery being at least once), and with a secret
 * `X-Coldwatch-Timestamp` and `X-Coldwatch-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`,
 * so the gateway can check the sender and refuse replays of old bodies.
 */

export const DEFAULT_WEBHOOK_BODY = '{"id":{{id}},"to":{{to}},"subject":{{subject}},"text":{{text}}}';

export function renderWebhookBody(template: string, n: Outgoing): { body: string; type: string } {
  const json = /^\s*[[{]/.test(template);
  const vars: Record<string, string> = { id: String(n.id), to: n.to, subject: n.subject, text: n.text };
  const body = template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => {
    if (!(k in vars)) return m;
    return json ? (k === 'id' ? vars[k] : JSON.stringify(vars[k])) : encodeURIComponent(vars[k]);
  });
  return { body, type: json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded; charset=utf-8' };
}

export const signWebhook = (secret: string, timestamp: string, body: string) => `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export function webhookSender(url: string, opts: { body?: string; secret?: string; timeoutMs: number; now: () => number }): Sender {
  const template = opts.body || DEFAULT_WEBHOOK_BODY;
  return {
    async send(n) {
      const { body, type } = renderWebhookBody(template, n);
      const headers: Record<string, string> = { 'content-type': type, 'idempotency-key': `coldwatch-notice-${n.id}` };
      if (opts.secret) {
        const ts = String(Math.floor(opts.now() / 1000));
        headers['x-coldwatch-timestamp'] = ts;
        headers['x-coldwatch-signature'] = signWebhook(opts.secret, ts, body);
      }
      const res = await callProvider(url, { method: 'POST', headers, body }, opts.timeoutMs);
      return `HTTP ${res.status}${res.text ? `: ${res.text}` : ''}`;
    },
  };
}
