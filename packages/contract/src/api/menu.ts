import { z } from 'zod';
import { resourceBody, resourceUpdateBody, roleBody, roleUpdateBody, ROLE_TYPES } from '../role.js';
import { id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Menu resources, the caller's menu and roles (spec §3 Role and menu resource, §6, §8). */

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

export interface PermissionNode {
  id: number;
  code: string;
  name: string;
  funcs: string[];
  children: PermissionNode[];
}
export const permissionNode: z.ZodType<PermissionNode> = z.lazy(() =>
  z.object({ id: z.number().int(), code: z.string(), name: z.string(), funcs: z.array(z.string()), children: z.array(permissionNode) }),
);

export const roleRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  name: z.string(),
  status: z.number().int(),
  type: z.enum(ROLE_TYPES),
  level: z.number().int(),
  isDefault: z.boolean(),
  delegable: z.boolean(),
  description: z.string(),
  userCount: z.number().int(),
  createdAt: ms,
});
export type RoleRow = z.infer<typeof roleRow>;
export const roleDetail = roleRow.extend({
  funcs: z.array(z.string()),
  resourceIds: z.array(z.number().int()),
  proxyCustomerIds: z.array(z.number().int()),
  sceneIds: z.array(z.number().int()),
});
export type RoleDetail = z.infer<typeof roleDetail>;

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

const tag = 'role';
export const roleApi = {
  page: route({
    method: 'GET',
    path: '/service/role/page',
    tag,
    summary: 'Roles of the caller\'s customers, paged',
    query: pageQuery(
      { name: z.string().trim().max(50).optional(), status: z.coerce.number().int().min(0).max(1).optional(), type: z.enum(ROLE_TYPES).optional(), customerId: id.optional() },
      ['name', 'level', 'status', 'createdAt'],
    ),
    result: pageOf(roleRow),
  }),
  detail: route({ method: 'GET', path: '/service/role/detail', tag, summary: 'One role with functions, resources, governed customers and scenes', query: idQuery, result: roleDetail }),
  permissionTree: route({
    method: 'GET',
    path: '/service/role/permissionTree',
    tag,
    summary: 'Menu entries with the function codes the caller may delegate',
    result: z.array(permissionNode),
  }),
  roleType: route({
    method: 'GET',
    path: '/service/share/roleType',
    tag,
    summary: 'Role types and levels the caller may give a new role of a customer',
    query: z.object({ customerId: id.optional() }),
    result: z.object({ types: z.array(z.enum(ROLE_TYPES)), levels: z.array(z.number().int()) }),
  }),
  add: route({ method: 'POST', path: '/service/role/add', tag, summary: 'Create a role', body: roleBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/role/update', tag, summary: 'Change a role', body: roleUpdateBody, result: idResult }),
  del: route({
    method: 'DELETE',
    path: '/service/role/del',
    tag,
    summary: 'Delete roles (with confirm=true also when users hold them)',
    query: idsQuery.extend({ confirm: z.enum(['true', 'false']).optional() }),
    result: z.object({ roles: z.number().int(), users: z.number().int() }),
  }),
};
