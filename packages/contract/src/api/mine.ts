import { z } from 'zod';
import { ms, route } from './route.js';
import { MAX_SHORTCUTS } from '../enums.js';

/** The caller's shortcuts (spec §2/§3) and login by QR code (spec §2/§4/§9). */


export const shortcutEntry = z.object({ id: z.number().int(), code: z.string(), name: z.string(), url: z.string(), icon: z.string() });
export type ShortcutEntry = z.infer<typeof shortcutEntry>;

export interface PickNode extends ShortcutEntry {
  check: boolean;
  children: PickNode[];
}
export const pickNode: z.ZodType<PickNode> = z.lazy(() => shortcutEntry.extend({ check: z.boolean(), children: z.array(pickNode) }));

export const shortcutBody = z.object({
  ids: z
    .array(z.coerce.number().int().positive())
    .max(MAX_SHORTCUTS, { error: 'errors.shortcut.tooMany' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'errors.shortcut.duplicate' }),
});

export const shortcutApi = {
  list: route({ method: 'GET', path: '/service/mine/shortcut', tag: 'mine', summary: 'The caller\'s shortcuts, in its order', result: z.array(shortcutEntry) }),
  menu: route({
    method: 'GET',
    path: '/service/mine/shortcutMenu',
    tag: 'mine',
    summary: 'The caller\'s menu to pick shortcuts from, chosen ones checked',
    result: z.array(pickNode),
  }),
  set: route({ method: 'POST', path: '/service/mine/addShortcut', tag: 'mine', summary: 'Replace the caller\'s shortcuts', body: shortcutBody, result: z.array(shortcutEntry) }),
};

const qrIssued = z.object({ key: z.string(), qrcode: z.string(), expiresAt: ms });
const keyQuery = z.object({ key: z.string().trim().min(1).max(64) });

export const loginQrApi = {
  get: route({ method: 'GET', path: '/service/mine/loginQrcode/get', tag: 'mine', summary: 'A new login QR code, valid five minutes', result: qrIssued }),
  refresh: route({
    method: 'GET',
    path: '/service/mine/loginQrcode/refresh',
    tag: 'mine',
    summary: 'End the shown code and issue a new one',
    query: z.object({ key: z.string().trim().max(64).optional() }),
    result: qrIssued,
  }),
  confirm: route({
    method: 'POST',
    path: '/service/mine/loginQrcode/confirm',
    tag: 'mine',
    summary: 'The signed-in mobile client lets the browser showing the code log in',
    query: keyQuery,
    result: z.object({ status: z.literal('confirmed') }),
  }),
};
