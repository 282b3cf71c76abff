import { z } from 'zod';
import { sceneAddBody, sceneUpdateBody } from '../schemas.js';
import { deletedResult, idQuery, idsQuery, route } from './route.js';

/** The organisation (scene) tree of spec §3 and §4. */

/** A node of the tree; `code` is the node key (the scene code; customer and carrier keys carry an underscore). */
export interface TreeNode {
  code: string;
  scene_id: number | null;
  scope_id: number | null;
  label: string;
  nodeType: 'all' | 'customer' | 'scene' | 'carrier';
  funcType: number | null;
  lng: number | null;
  lat: number | null;
  carrierId?: number;
  carrierType?: number;
  children: TreeNode[];
}

export const treeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    code: z.string(),
    scene_id: z.number().int().nullable(),
    scope_id: z.number().int().nullable(),
    label: z.string(),
    nodeType: z.enum(['all', 'customer', 'scene', 'carrier']),
    funcType: z.number().int().nullable(),
    lng: z.number().nullable(),
    lat: z.number().nullable(),
    carrierId: z.number().int().optional(),
    carrierType: z.number().int().optional(),
    children: z.array(treeNode),
  }),
);

export const sceneDetail = z.object({
  id: z.number().int(),
  code: z.string(),
  label: z.string(),
  parentId: z.number().int().nullable(),
  funcType: z.number().int(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  customerId: z.number().int(),
  customerName: z.string(),
  childCount: z.number().int(),
  carrierCount: z.number().int(),
});

const flag = z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1');
const treeQuery = z.object({ all: flag, withCarrier: flag });

const tag = 'scene';
export const sceneApi = {
  tree: route({ method: 'GET', path: '/service/share/tree', tag, summary: 'The organisation tree of the caller (all=true: every customer, for platform users)', query: treeQuery, result: z.array(treeNode) }),
  treeUtil: route({ method: 'GET', path: '/service/treeUtil/tree', tag, summary: 'The organisation tree (the spec\'s second name of share/tree)', query: treeQuery, result: z.array(treeNode) }),
  detail: route({ method: 'GET', path: '/service/scene/detail', tag, summary: 'One scene node with its counts', query: idQuery, result: sceneDetail }),
  add: route({ method: 'POST', path: '/service/scene/add', tag, summary: 'Add a node as a child or at the top', body: sceneAddBody, result: z.object({ id: z.number().int(), code: z.string() }) }),
  update: route({ method: 'PUT', path: '/service/scene/update', tag, summary: 'Rename, retype or move a node', body: sceneUpdateBody, result: z.object({ id: z.number().int() }) }),
  move: route({
    method: 'PUT',
    path: '/service/scene/move',
    tag,
    summary: 'Drag and drop: put a node under a parent (null: top level) at a position among its siblings',
    body: z.object({ id: z.number().int().positive(), parentId: z.number().int().positive().nullable(), index: z.number().int().min(0).max(10_000) }),
    result: z.object({ id: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/scene/del', tag, summary: 'Delete nodes that hold no carriers or children', query: idsQuery, result: deletedResult }),
};
