import { flattenMenu } from '@coldwatch/contract';
import type { Db } from '../db/client.js';

/**
 * Brings the built-in menu resources in line with packages/contract/src/menu.ts: adds new
 * entries and updates the product's own fields; entries added by hand (builtin false) and
 * the enabled flag set by the platform are left alone. Runs at every start; idempotent.
 */
export async function syncMenu(db: Db): Promise<void> {
  const entries = flattenMenu();
  await db.tx(async (q) => {
    let sort = 0;
    for (const e of entries) {
      const parent = e.parent ? (await q.query<{ id: number }>('SELECT id FROM menu_resource WHERE code = $1', [e.parent]))[0]?.id ?? null : null;
      await q.query(
        `INSERT INTO menu_resource (parent_id, code, name, url, icon, hidden, visible, func_object, access_level, sort, builtin)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, true)
         ON CONFLICT (code) DO UPDATE SET parent_id = EXCLUDED.parent_id, url = EXCLUDED.url, icon = EXCLUDED.icon,
           hidden = EXCLUDED.hidden, visible = EXCLUDED.visible, func_object = EXCLUDED.func_object,
           access_level = EXCLUDED.access_level, sort = EXCLUDED.sort
         WHERE menu_resource.builtin`,
        [parent, e.code, e.code, e.url, e.icon ?? '', e.hidden ?? false, e.visible ?? 'all', e.object ?? null, e.level ?? 0, sort++],
      );
    }
  });
}
