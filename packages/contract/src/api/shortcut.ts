import { z } from 'zod';
import { route } from './route.js';
import { MAX_SHORTCUTS } from '../enums.js';

/** The caller's shortcuts (spec §2/§3). */

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
