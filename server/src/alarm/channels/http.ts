import { SendError } from './types.js';

/**
 * One call to an SMS or voice provider with a deadline. The outcome is classified once here for
 * every HTTP provider: 2xx answers; a timeout, a refused connection, 5xx and 429 (throttled) are
 * temporary; any other 4xx is the provider refusing this notice (a bad number): permanent.
 */
export async function callProvider(url: string, init: RequestInit, timeoutMs: number, answersInBody = false): Promise<{ status: number; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') throw new SendError(`no answer within ${timeoutMs} ms`, false);
    throw new SendError(String(e.cause?.code ?? e.cause?.message ?? e.message ?? err), false);
  }
  const text = (await res.text().catch(() => '')).slice(0, 400);
  // A provider that says what went wrong in its body (Aliyun's Code) is classified by its caller.
  if (res.ok || (answersInBody && res.status < 500)) return { status: res.status, text };
  return refused(res.status, text);
}

/** A non-2xx answer as a SendError: 408, 429 and 5xx are temporary, any other 4xx permanent. */
export function refused(status: number, text: string): never {
  const reason = `HTTP ${status}${text ? `: ${text}` : ''}`;
  throw new SendError(reason, status >= 400 && status < 500 && status !== 429 && status !== 408);
}
