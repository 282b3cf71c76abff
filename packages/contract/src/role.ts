import { z } from 'zod';
import * as r from './rules.js';

/**
 * Roles and menu resources (spec §3, §5, §6, §8). Request bodies shared by the server and the
 * web, and the §8 entity answers of these two screens.
 */

/** Spec §8 "Role": 408 customer mismatch, 409 same name, 413 resources empty, 415 at least one agent. */
export const ROLE_CODE = { CUSTOMER_MISMATCH: 408, SAME_NAME: 409, RESOURCES_EMPTY: 413, NO_AGENT: 415 } as const;
/** Spec §8 "Menu": 407 name exists, 408 code exists. */
export const MENU_CODE = { NAME_EXISTS: 407, CODE_EXISTS: 408 } as const;

/** Role types of spec §6. */
export const ROLE_TYPES = ['admin', 'normal'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

/** Role levels of spec §6: -1 proxy management, 0 customer use, 1 customer management, 2 platform use, 3 platform management. */
export const ROLE_LEVELS = [-1, 0, 1, 2, 3] as const;

const id = z.number().int().positive();

export const roleBody = z.object({
  name: r.name(50),
  /** 1 active, 0 cancelled: a cancelled role gives its users nothing. */
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  type: z.enum(ROLE_TYPES).default('normal'),
  /** Spec §6 role level; omitted: 0 for a customer, 2 for the platform customer. */
  level: z.number().int().min(-1).max(3).optional(),
  /** Belonging customer; omitted = the caller's. Only platform users may name another one. */
  customerId: id.optional(),
  /** Governed customers of a proxy role (level -1); ignored for other levels. */
  proxyCustomerIds: z.array(id).default([]),
  /** Operable resources: menu-resource ids (required, spec §8 413). */
  resourceIds: z.array(id).default([]),
  /** Associated architecture: scene ids of the role's customer; empty = the whole customer. */
  sceneIds: z.array(id).default([]),
  isDefault: z.boolean().default(false),
  delegable: z.boolean().default(false),
  /** Function codes of spec §6 (viewCarrier, newCarrier, …). */
  funcs: z.array(z.string().max(40)).default([]),
  description: r.text(250).default(''),
});
export type RoleBody = z.infer<typeof roleBody>;
/** Update: `type` may be left out (a role's type never changes; sending another one answers an error). */
export const roleUpdateBody = roleBody.extend({ id, type: z.enum(ROLE_TYPES).optional() });
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

/** Menu resource (spec §3): name and code required and unique (spec §5, §8 407/408). */
export const resourceBody = z.object({
  parentId: id.nullable().default(null),
  code: r.code(30),
  name: r.name(50),
  url: r.text(100).default(''),
  icon: r.text(30).default(''),
  hidden: z.boolean().default(false),
  enabled: z.boolean().default(true),
  visible: z.enum(['all', 'admin', 'system']).default('all'),
  /** Function object: the entry carries view/new/edit/remove<Object>; null = no function check. */
  funcObject: z.string().regex(/^[A-Za-z]+$/).max(30).nullable().default(null),
  extraCode: r.text(30).default(''),
  /** Spec §6 access level 0–4. */
  accessLevel: z.number().int().min(0).max(4).default(0),
  sort: z.number().int().min(0).max(99999).default(0),
});
export type ResourceBody = z.infer<typeof resourceBody>;
export const resourceUpdateBody = resourceBody.extend({ id });
export type ResourceUpdateBody = z.infer<typeof resourceUpdateBody>;
