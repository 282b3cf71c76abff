import type { Db } from '../db/client.js';
import articles from './guide.json' with { type: 'json' };

interface SeedItem { code: string; path: string; nameZh: string; nameEn: string; contentZh: string; contentEn: string }
interface SeedGroup { code: string; nameZh: string; nameEn: string; items: SeedItem[] }

/** The product's own help articles (docs/help.md), in both languages. */
export const GUIDE_ARTICLES: readonly SeedGroup[] = articles;

/**
 * Brings the product's guide in line with guide.json at every start, as syncMenu does the menu:
 * new groups and articles are added; the product's own are updated unless platform staff have
 * edited them (edited), whose text then stays theirs; staff's own records are left alone.
 */
export async function syncGuide(db: Db): Promise<void> {
  await db.tx(async (q) => {
    for (const [gi, g] of GUIDE_ARTICLES.entries()) {
      const [group] = await q.query<{ id: number }>(
        `INSERT INTO guide_group (code, name_zh, name_en, sort, builtin) VALUES ($1, $2, $3, $4, true)
         ON CONFLICT (code) DO UPDATE SET name_zh = EXCLUDED.name_zh, name_en = EXCLUDED.name_en, sort = EXCLUDED.sort, updated_at = now()
           WHERE guide_group.builtin AND NOT guide_group.edited AND (guide_group.name_zh, guide_group.name_en, guide_group.sort) IS DISTINCT FROM (EXCLUDED.name_zh, EXCLUDED.name_en, EXCLUDED.sort)
         RETURNING id`,
        [g.code, g.nameZh, g.nameEn, gi * 10],
      );
      const groupId = group?.id ?? (await q.query<{ id: number }>('SELECT id FROM guide_group WHERE code = $1', [g.code]))[0].id;
      for (const [ii, it] of g.items.entries()) {
        await q.query(
          `INSERT INTO guide_item (group_id, code, name_zh, name_en, content_zh, content_en, path, sort, builtin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true)
           ON CONFLICT (code) DO UPDATE SET group_id = EXCLUDED.group_id, name_zh = EXCLUDED.name_zh, name_en = EXCLUDED.name_en, content_zh = EXCLUDED.content_zh,
             content_en = EXCLUDED.content_en, path = EXCLUDED.path, sort = EXCLUDED.sort, updated_at = now()
             WHERE guide_item.builtin AND NOT guide_item.edited
               AND (guide_item.group_id, guide_item.name_zh, guide_item.name_en, guide_item.content_zh, guide_item.content_en, guide_item.path, guide_item.sort)
                   IS DISTINCT FROM (EXCLUDED.group_id, EXCLUDED.name_zh, EXCLUDED.name_en, EXCLUDED.content_zh, EXCLUDED.content_en, EXCLUDED.path, EXCLUDED.sort)`,
          [groupId, it.code, it.nameZh, it.nameEn, it.contentZh, it.contentEn, it.path, ii * 10],
        );
      }
    }
  });
}
