import { z } from 'zod';
import { roleBody, roleUpdateBody, ROLE_TYPES } from '../role.js';
import { id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Roles (spec §3 Role and menu resource, §6, §8): their functions, resources, governed customers and scenes. */

/** One node of the role editor's permission tree: a menu entry and the function codes it carries. */
export interface PermissionNode {
  id: number;
  code: string;
  name: string;
  /** view/new/edit/remove<Object> (and the entry's extra codes) the caller may delegate; empty for sections. */
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
