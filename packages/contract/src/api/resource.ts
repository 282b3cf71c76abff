import { z } from 'zod';
import { resourceBody, resourceUpdateBody } from '../role.js';
import { id, idQuery, idResult, idsQuery, pageOf, pageQuery, route } from './route.js';

/** Menu resources and the caller's menu (spec §3 Role and menu resource, §6). */

export interface MenuNode {
  id: number;
  code: string;
  /** The stored name; the web shows the catalogue text `menu.<code>` when it has one. */
  name: string;
  url: string;
  icon: string;
  hidden: boolean;
  children: MenuNode[];
}
export const menuNode: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({ id: z.number().int(), code: z.string(), name: z.string(), url: z.string(), icon: z.string(), hidden: z.boolean(), children: z.array(menuNode) }),
);

export const resourceRow = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  code: z.string(),
  name: z.string(),
  url: z.string(),
  icon: z.string(),
  hidden: z.boolean(),
  enabled: z.boolean(),
  visible: z.enum(['all', 'admin', 'system']),
  funcObject: z.string().nullable(),
  /** The function codes the entry carries: view/new/edit/remove<Object> (and its extra codes). */
  funcCodes: z.array(z.string()),
  extraCode: z.string(),
  accessLevel: z.number().int(),
  sort: z.number().int(),
  builtin: z.boolean(),
});
export type ResourceRow = z.infer<typeof resourceRow>;
export interface ResourceTreeNode extends ResourceRow {
  children: ResourceTreeNode[];
}
export const resourceTreeNode: z.ZodType<ResourceTreeNode> = z.lazy(() => resourceRow.extend({ children: z.array(resourceTreeNode) }));

const rtag = 'resource';
export const resourceApi = {
  page: route({
    method: 'GET',
    path: '/service/resource/page',
    tag: rtag,
    summary: 'Menu resources, paged (root only)',
    query: pageQuery({ name: z.string().trim().max(50).optional(), code: z.string().trim().max(40).optional(), parentId: id.optional() }, ['name', 'code', 'sort']),
    result: pageOf(resourceRow),
  }),
  detail: route({ method: 'GET', path: '/service/resource/detail', tag: rtag, summary: 'One menu resource (root only)', query: idQuery, result: resourceRow }),
  tree: route({ method: 'GET', path: '/service/resource/tree', tag: rtag, summary: 'Every menu resource as a tree (root only)', result: z.array(resourceTreeNode) }),
  add: route({ method: 'POST', path: '/service/resource/add', tag: rtag, summary: 'Create a menu resource (root only)', body: resourceBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/resource/update', tag: rtag, summary: 'Change a menu resource (root only)', body: resourceUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/resource/del', tag: rtag, summary: 'Delete menu resources and their children (root only)', query: idsQuery, result: z.object({ deleted: z.number().int() }) }),
  mine: route({ method: 'GET', path: '/service/mine/resource', tag: 'mine', summary: 'The caller\'s menu tree', result: z.array(menuNode) }),
};
