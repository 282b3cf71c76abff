import { z } from 'zod';
import { sceneAddBody, sceneUpdateBody, translate, type Locale } from '@coldwatch/contract';
import type { Module } from '../index.js';
import type { Db } from '../../platform/db/client.js';
import { isPlatform, type Scope } from '../../platform/auth/scope.js';
import { mutate } from '../../platform/audit/audit.js';
import { ok } from '../../platform/http/envelope.js';
import { notFound } from '../../platform/http/errors.js';
import { idsQuery } from '../../platform/http/paging.js';
import * as repo from './scene.repository.js';

/** A node of the organisation tree of spec §3; `code` is the node key (the scene code). */
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

const flag = z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1');
const treeQuery = z.object({ all: flag, withCarrier: flag });

/**
 * Customer nodes with their scenes nested under them (and carriers as leaves when asked).
 * Customer and carrier keys carry an underscore, which a scene code (letters and digits) cannot,
 * so every key in the tree is unique.
 */
export async function buildTree(db: Db, scope: Scope, opts: { all: boolean; withCarrier: boolean }, locale: Locale): Promise<TreeNode[]> {
  const all = opts.all && isPlatform(scope);
  const customers = await repo.customersOf(db, scope, all);
  const ids = customers.map((c) => c.id);
  // A scene-limited user sees its limit's subtrees; their top nodes hang under the customer node.
  const scenes = await repo.scenesOf(db, ids, scope.sceneIds);
  const nodes = new Map<number, TreeNode>();
  for (const s of scenes) {
    nodes.set(s.id, { code: s.code, scene_id: s.id, scope_id: s.customer_id, label: s.label, nodeType: 'scene', funcType: s.func_type, lng: s.lng, lat: s.lat, children: [] });
  }
  const roots = new Map<number, TreeNode>(
    customers.map((c) => [c.id, { code: `cust_${c.code}`, scene_id: null, scope_id: c.id, label: c.name, nodeType: 'customer', funcType: 0, lng: null, lat: null, children: [] }]),
  );
  for (const s of scenes) {
    const parent = (s.parent_id !== null && nodes.get(s.parent_id)) || roots.get(s.customer_id)!;
    parent.children.push(nodes.get(s.id)!);
  }
  if (opts.withCarrier) {
    for (const c of await repo.carriersOf(db, ids)) {
      nodes.get(c.scene_id)?.children.push({
        code: `carrier_${c.id}`, scene_id: c.scene_id, scope_id: c.customer_id, label: c.name, nodeType: 'carrier', funcType: null,
        lng: null, lat: null, carrierId: c.id, carrierType: c.type, children: [],
      });
    }
  }
  const list = [...roots.values()];
  if (!all) return list;
  return [{ code: 'all_node', scene_id: null, scope_id: null, label: translate('errors.tree.all', locale), nodeType: 'all', funcType: 0, lng: null, lat: null, children: list }];
}

/** The organisation tree (spec §3, §4) and scene CRUD. */
export const sceneRoutes: Module = (app, { db }) => {
  // Every signed-in user needs the tree to navigate (the login guard reloads it), so it needs no function code.
  for (const url of ['/service/share/tree', '/service/treeUtil/tree']) {
    app.get(url, { schema: { querystring: treeQuery, tags: ['scene'] } }, async (req) => ok(await buildTree(db, req.scope, req.query, req.locale), req.locale));
  }

  app.get('/service/scene/detail', { config: { funcs: ['viewScene'] }, schema: { querystring: z.object({ id: z.coerce.number().int().positive() }), tags: ['scene'] } }, async (req) => {
    const row = await repo.detail(db, req.scope, req.query.id);
    if (!row) throw notFound();
    return ok(row, req.locale);
  });

  app.post('/service/scene/add', { config: { funcs: ['newScene'] }, schema: { body: sceneAddBody, tags: ['scene'] } }, async (req) => {
    const r = await mutate(db, req, { module: 'scene', method: 'add', content: `add scene ${req.body.label}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.put('/service/scene/update', { config: { funcs: ['editScene'] }, schema: { body: sceneUpdateBody, tags: ['scene'] } }, async (req) => {
    const r = await mutate(db, req, { module: 'scene', method: 'update', content: `update scene ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    return ok(r, req.locale);
  });

  app.delete('/service/scene/del', { config: { funcs: ['removeScene'] }, schema: { querystring: idsQuery, tags: ['scene'] } }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'scene', method: 'del', content: `delete scenes ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    return ok(r, req.locale);
  });
};
