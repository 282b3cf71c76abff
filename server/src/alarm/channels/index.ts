import type { NoticeChannel } from '@coldwatch/contract';
import type { Config, ProviderConfig } from '../../config.js';
import { aliyunSender } from './aliyun.js';
import { emailSender } from './email.js';
import type { Sender } from './types.js';
import { webhookSender } from './webhook.js';

export { NOT_CONFIGURED, SendError, type Outgoing, type Sender } from './types.js';

export type ChannelConfig = Pick<Config, 'smtpUrl' | 'mailFrom' | 'sms' | 'voice'> & Partial<Pick<Config, 'noticeHttpTimeoutMs'>>;

/** The provider a URL names: http(s) is the webhook, aliyun(+http) Alibaba Cloud. */
function provider(channel: 'sms' | 'voice', p: ProviderConfig, timeoutMs: number, now: () => number): Sender {
  const scheme = new URL(p.url).protocol;
  if (scheme === 'http:' || scheme === 'https:') return webhookSender(p.url, { body: p.body, secret: p.secret, timeoutMs, now });
  if (scheme === 'aliyun:' || scheme === 'aliyun+http:') return aliyunSender(channel, p.url, { timeoutMs, now });
  throw new Error(`${channel.toUpperCase()}_URL: unknown provider ${scheme} (http, https, aliyun)`);
}

/** The sender of each configured channel; a channel left out fails its rows visibly (notifier.ts). */
export function createSenders(config: ChannelConfig, now: () => number): Partial<Record<NoticeChannel, Sender>> {
  const senders: Partial<Record<NoticeChannel, Sender>> = {};
  if (config.smtpUrl) senders.email = emailSender(config.smtpUrl, config.mailFrom);
  const timeout = config.noticeHttpTimeoutMs ?? 10_000;
  if (config.sms) senders.sms = provider('sms', config.sms, timeout, now);
  if (config.voice) senders.voice = provider('voice', config.voice, timeout, now);
  return senders;
}
