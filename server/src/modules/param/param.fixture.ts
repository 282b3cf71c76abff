import { expect } from 'vitest';
import { translate } from '@coldwatch/contract';

/** What a test's `PUT /service/param/update` answers: the HTTP status with the envelope. */
type Put = (key: string, value: unknown) => Promise<{ status: number; state: { code: number }; result: { errors: Record<string, string> } }>;

/** Each value is refused with 400 and its rule's message (in English) under `value`. */
export async function expectRefused(put: Put, bad: readonly (readonly [key: string, value: unknown, message: string])[]) {
  for (const [key, value, msg] of bad) {
    const r = await put(key, value);
    expect(r.status, `${key}=${String(value)}`).toBe(400);
    expect(r.result.errors.value, `${key}=${String(value)}`).toBe(translate(msg, 'en-US'));
  }
}
