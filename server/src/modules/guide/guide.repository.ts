import { sql, type Kysely } from 'kysely';
import { Code, type GuideBook, type GuideGroupBody, type GuideItemBody } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { system } from '../../platform/db/kysely.js';
import { msOf } from '../../platform/db/query.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { mapUnique } from '../shared/records.js';

/** The guide: platform-wide help articles (no customer's data), read by all, written by platform staff. */

const groupSelect = (k: Kysely<DB>) =>
  k.selectFrom('guide_group as g').select((eb) => [
    'g.id',
    'g.code',
    'g.name_zh as nameZh',
    'g.name_en as nameEn',
    'g.sort',
    'g.status',
    'g.builtin',
    eb.selectFrom('guide_item as i').whereRef('i.group_id', '=', 'g.id').select(sql<number>`count(*)::int`.as('n')).as('items'),
    msOf('g.updated_at').as('updatedAt'),
  ]);

const itemSelect = (k: Kysely<DB>) =>
  k.selectFrom('guide_item as i').select([
    'i.id',
    'i.group_id as groupId',
    'i.code',
    'i.name_zh as nameZh',
    'i.name_en as nameEn',
    'i.content_zh as contentZh',
    'i.content_en as contentEn',
    'i.path',
    'i.sort',
    'i.status',
    'i.builtin',
    msOf('i.updated_at').as('updatedAt'),
  ]);

export async function groups(q: Queryable) {
  return (await groupSelect(system(q)).orderBy('g.sort').orderBy('g.id').execute()).map((g) => ({ ...g, items: g.items ?? 0 }));
}

export async function items(q: Queryable, groupId: number) {
  const group = await system(q).selectFrom('guide_group').select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) throw notFound();
  return itemSelect(system(q)).where('i.group_id', '=', groupId).orderBy('i.sort').orderBy('i.id').execute();
}

/** What a reader sees: shown groups with their shown articles, both in order; a group with none shown is left out. */
export async function book(q: Queryable): Promise<GuideBook> {
  const k = system(q);
  const [gs, is] = await Promise.all([
    k.selectFrom('guide_group').select(['id', 'code', 'name_zh as nameZh', 'name_en as nameEn']).where('status', '=', 1).orderBy('sort').orderBy('id').execute(),
    k
      .selectFrom('guide_item')
      .select(['id', 'group_id as groupId', 'code', 'name_zh as nameZh', 'name_en as nameEn', 'content_zh as contentZh', 'content_en as contentEn', 'path'])
      .where('status', '=', 1)
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ]);
  return gs
    .map((g) => ({ ...g, items: is.filter((i) => i.groupId === g.id).map(({ groupId: _g, ...i }) => i) }))
    .filter((g) => g.items.length > 0);
}

const codeExists = () => conflict(Code.CODE_EXISTS, 'errors.guide.codeExists');
const groupColumns = (b: GuideGroupBody) => ({ code: b.code, name_zh: b.nameZh ?? '', name_en: b.nameEn ?? '', sort: b.sort ?? 0, status: b.status ?? 1 });
const itemColumns = (b: GuideItemBody) => ({
  group_id: b.groupId,
  code: b.code,
  name_zh: b.nameZh ?? '',
  name_en: b.nameEn ?? '',
  content_zh: b.contentZh ?? '',
  content_en: b.contentEn ?? '',
  path: b.path ?? '',
  sort: b.sort ?? 0,
  status: b.status ?? 1,
});

export async function addGroup(q: Queryable, b: GuideGroupBody) {
  return mapUnique(() => system(q).insertInto('guide_group').values(groupColumns(b)).returning('id').executeTakeFirstOrThrow(), { guide_group_code: codeExists() });
}

/** A change by staff marks the record edited: the start-up synchronisation leaves its text alone from then on. */
export async function updateGroup(q: Queryable, b: GuideGroupBody & { id: number }) {
  const r = await mapUnique(
    () => system(q).updateTable('guide_group').set({ ...groupColumns(b), edited: true, updated_at: sql`now()` }).where('id', '=', b.id).executeTakeFirst(),
    { guide_group_code: codeExists() },
  );
  if (!Number(r.numUpdatedRows)) throw notFound();
  return { id: b.id };
}

export async function removeGroup(q: Queryable, id: number) {
  const k = system(q);
  const g = await k.selectFrom('guide_group').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  if (!g) throw notFound();
  const used = await k.selectFrom('guide_item').select('id').where('group_id', '=', id).limit(1).executeTakeFirst();
  if (used) throw new AppError(Code.FAILED, 'errors.guide.groupInUse');
  await k.deleteFrom('guide_group').where('id', '=', id).execute();
  return { deleted: 1 };
}

async function groupMustExist(q: Queryable, groupId: number) {
  if (!(await system(q).selectFrom('guide_group').select('id').where('id', '=', groupId).executeTakeFirst())) throw new AppError(Code.PARAM_ERROR, 'errors.guide.group', 400);
}

export async function addItem(q: Queryable, b: GuideItemBody) {
  await groupMustExist(q, b.groupId);
  return mapUnique(() => system(q).insertInto('guide_item').values(itemColumns(b)).returning('id').executeTakeFirstOrThrow(), { guide_item_code: codeExists() });
}

export async function updateItem(q: Queryable, b: GuideItemBody & { id: number }) {
  await groupMustExist(q, b.groupId);
  const r = await mapUnique(
    () => system(q).updateTable('guide_item').set({ ...itemColumns(b), edited: true, updated_at: sql`now()` }).where('id', '=', b.id).executeTakeFirst(),
    { guide_item_code: codeExists() },
  );
  if (!Number(r.numUpdatedRows)) throw notFound();
  return { id: b.id };
}

export async function removeItem(q: Queryable, id: number) {
  const r = await system(q).deleteFrom('guide_item').where('id', '=', id).executeTakeFirst();
  if (!Number(r.numDeletedRows)) throw notFound();
  return { deleted: 1 };
}

/** All or none: an unknown id changes nothing. */
export async function setStatus(q: Queryable, ids: number[], status: number) {
  const k = system(q);
  const found = await k.selectFrom('guide_item').select('id').where('id', 'in', ids).forUpdate().execute();
  if (found.length !== new Set(ids).size) throw notFound();
  await k.updateTable('guide_item').set({ status, edited: true, updated_at: sql`now()` }).where('id', 'in', ids).execute();
  return { updated: found.length };
}
