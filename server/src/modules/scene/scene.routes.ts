import { sceneApi, translate, type Locale, type TreeNode } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import type { Queryable } from '../../platform/db/client.js';
import { isPlatform, type Scope } from '../../platform/auth/scope.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './scene.repository.js';

/**
 * Customer nodes with their scenes nested under them (and carriers as leaves when asked).
 * Customer and carrier keys carry an underscore, which a scene code (letters and digits) cannot,
 * so every key in the tree is unique.
 */
export async function buildTree(db: Queryable, scope: Scope, opts: { all: boolean; withCarrier: boolean }, locale: Locale): Promise<TreeNode[]> {
  const all = opts.all && isPlatform(scope);
  const customers = await repo.customersOf(db, scope, all);
  const ids = customers.map((c) => c.id);
  // A scene-limited user sees its limit's subtrees; their top nodes hang under the customer node.
  const scenes = await repo.scenesOf(db, scope, ids);
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
    for (const c of await repo.carriersOf(db, scope, ids)) {
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
  for (const def of [sceneApi.tree, sceneApi.treeUtil]) serve(app, def, {}, async (req) => buildTree(db, req.scope, req.query, req.locale));

  serve(app, sceneApi.detail, { funcs: ['viewScene'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, sceneApi.add, { funcs: ['newScene'] }, async (req) =>
    mutate(db, req, { module: 'scene', method: 'add', content: `add scene ${req.body.label}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );

  serve(app, sceneApi.update, { funcs: ['editScene'] }, async (req) =>
    mutate(db, req, { module: 'scene', method: 'update', content: `update scene ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );

  serve(app, sceneApi.move, { funcs: ['editScene'] }, async (req) =>
    mutate(db, req, { module: 'scene', method: 'move', content: `move scene ${req.body.id}`, params: req.body }, (q) => repo.move(q, req.scope, req.body)),
  );

  serve(app, sceneApi.del, { funcs: ['removeScene'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'scene', method: 'del', content: `delete scenes ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
  });
};
