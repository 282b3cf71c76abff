import { z } from 'zod';
import { text } from '../rules.js';
import { deletedResult, id, idParams, idResult, idsQuery, ms, route } from './route.js';

/*
 * The guide (spec §3 "Guide group and item", §7 guide/* and share/guide, §2 /guide and
 * /sys/online_help; docs/help.md): help articles in groups, one group per section of the
 * console, each article in both languages and tied to the page it explains. Every signed-in
 * user reads the shown ones (share/guide); platform staff manage them (the guide/* calls).
 */

/** A group's or an article's code: letters, digits, dot, underscore and hyphen, 1 to 50. */
export const guideCode = z
  .string({ error: 'errors.rule.required' })
  .trim()
  .min(1, { error: 'errors.rule.required' })
  .max(50, { error: 'errors.rule.maxLength50' })
  .regex(/^[A-Za-z0-9._-]+$/, { error: 'errors.guide.code' });

/** 1 shown, 0 hidden. */
export const GUIDE_STATUS = { hidden: 0, shown: 1 } as const;
const status = z.union([z.literal(0), z.literal(1)], { error: 'errors.guide.status' });
const sort = z.number({ error: 'errors.rule.number' }).int({ error: 'errors.rule.integer' }).min(0, { error: 'errors.guide.sort' }).max(9999, { error: 'errors.guide.sort' });
/** An article's text: paragraphs separated by a blank line; a line starting with "- " is a list item. */
const content = z.string().max(20_000, { error: 'errors.guide.contentTooLong' });
const names = {
  nameZh: text(100).default(''),
  nameEn: text(100).default(''),
};
/** One of the two names is enough: the other language shows it. */
const oneName: [(b: { nameZh: string; nameEn: string }) => boolean, { error: string; path: string[] }] = [
  (b) => b.nameZh.length > 0 || b.nameEn.length > 0,
  { error: 'errors.guide.nameRequired', path: ['nameZh'] },
];

const groupBody = z.object({ code: guideCode, ...names, sort: sort.default(0), status: status.default(1) });
export const guideGroupAddBody = groupBody.refine(...oneName);
export const guideGroupUpdateBody = groupBody.extend({ id }).refine(...oneName);

const itemBody = z.object({
  groupId: id,
  code: guideCode,
  ...names,
  contentZh: content.default(''),
  contentEn: content.default(''),
  /** The console page it explains ('' none), a path of the console's own. */
  path: z.string().trim().max(200, { error: 'errors.guide.path' }).regex(/^(\/[A-Za-z0-9_/-]*)?$/, { error: 'errors.guide.path' }).default(''),
  sort: sort.default(0),
  status: status.default(1),
});
export const guideItemAddBody = itemBody.refine(...oneName);
export const guideItemUpdateBody = itemBody.extend({ id }).refine(...oneName);
export type GuideGroupBody = z.infer<typeof guideGroupAddBody>;
export type GuideItemBody = z.infer<typeof guideItemAddBody>;

export const guideGroupRow = z.object({
  id: z.number().int(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  sort: z.number().int(),
  status: z.number().int(),
  /** One of the product's own (synchronised at start until staff edit it). */
  builtin: z.boolean(),
  items: z.number().int(),
  updatedAt: ms,
});
export type GuideGroupRow = z.infer<typeof guideGroupRow>;

export const guideItemRow = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  contentZh: z.string(),
  contentEn: z.string(),
  path: z.string(),
  sort: z.number().int(),
  status: z.number().int(),
  builtin: z.boolean(),
  updatedAt: ms,
});
export type GuideItemRow = z.infer<typeof guideItemRow>;

/** The shown guide as a reader gets it: shown groups with their shown articles, in order. */
export const guideBook = z.array(guideGroupRow.pick({ id: true, code: true, nameZh: true, nameEn: true }).extend({ items: z.array(guideItemRow.pick({ id: true, code: true, nameZh: true, nameEn: true, contentZh: true, contentEn: true, path: true })) }));
export type GuideBook = z.infer<typeof guideBook>;

const tag = 'guide';
export const guideApi = {
  book: route({ method: 'GET', path: '/service/share/guide', tag, summary: 'The shown guide: groups and their articles in both languages (online help, /guide)', result: guideBook }),
  groups: route({ method: 'GET', path: '/service/guide/groups', tag, summary: 'Every guide group, hidden ones too (platform staff)', result: z.array(guideGroupRow) }),
  list: route({ method: 'GET', path: '/service/guide/list/:id', tag, summary: "A group's articles, hidden ones too (platform staff)", params: idParams, result: z.array(guideItemRow) }),
  groupAdd: route({ method: 'POST', path: '/service/guide/group/add', tag, summary: 'Add a guide group', body: guideGroupAddBody, result: idResult }),
  groupUpdate: route({ method: 'PUT', path: '/service/guide/group/update', tag, summary: 'Change a guide group', body: guideGroupUpdateBody, result: idResult }),
  groupDel: route({ method: 'DELETE', path: '/service/guide/group/del/:id', tag, summary: 'Delete a guide group without articles', params: idParams, result: deletedResult }),
  add: route({ method: 'POST', path: '/service/guide/add', tag, summary: 'Add a guide article', body: guideItemAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/guide/update', tag, summary: 'Change a guide article', body: guideItemUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/guide/del/:id', tag, summary: 'Delete a guide article', params: idParams, result: deletedResult }),
  status: route({
    method: 'POST',
    path: '/service/guide/update',
    tag,
    summary: 'Show or hide guide articles (status 1 or 0)',
    query: idsQuery.extend({ status: z.enum(['0', '1'], { error: 'errors.guide.status' }).transform(Number) }),
    result: z.object({ updated: z.number().int() }),
  }),
};
