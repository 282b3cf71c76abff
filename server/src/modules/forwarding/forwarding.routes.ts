import { forwardingApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as servers from './servers.repository.js';
import * as platforms from './platforms.repository.js';
import * as bindings from './bindings.repository.js';
import { forwardingKey } from './secret.js';

/**
 * Spec §2 /sys/forwarding (menu forwarding, function object Forwarding), §7 forwardSet/*: the
 * customer's forwarding servers, platforms and forward settings. Every change is in the system
 * log without its secret (the logged parameters leave the password and the key out). What the
 * forwarder does with them: jobs/forward (docs/forwarding.md).
 */
const F = { view: ['viewForwarding'], add: ['newForwarding'], edit: ['editForwarding'], remove: ['removeForwarding'] };
const withoutSecrets = <T extends object>(b: T) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'password' && k !== 'key'));

export const forwardingRoutes: Module = (app, { db }) => {
  const log = (module: string, method: string, content: string, params: object) => ({ module, method, content, params: withoutSecrets(params) });
  serve(app, forwardingApi.page, { funcs: F.view }, async (req) => servers.pageServers(db, req.scope, req.query));
  serve(app, forwardingApi.detail, { funcs: F.view }, async (req) => servers.serverDetail(db, req.scope, req.query.id));
  serve(app, forwardingApi.add, { funcs: F.add }, async (req) => {
    const key = await forwardingKey(db);
    return mutate(db, req, log('forwarding', 'add', `add the ${req.body.type} server ${req.body.name}`, req.body), (q) => servers.addServer(q, req.scope, key, req.body));
  });
  serve(app, forwardingApi.update, { funcs: F.edit }, async (req) => {
    const key = await forwardingKey(db);
    return mutate(db, req, log('forwarding', 'update', `change the server ${req.body.name}`, req.body), (q) => servers.updateServer(q, req.scope, key, req.body));
  });
  serve(app, forwardingApi.del, { funcs: F.remove }, async (req) =>
    mutate(db, req, log('forwarding', 'delete', `delete the servers ${req.query.ids.join(',')}`, req.query), (q) => servers.removeServers(q, req.scope, req.query.ids)),
  );
  serve(app, forwardingApi.targets, { funcs: F.view }, async (req) => bindings.targets(db, req.scope));

  serve(app, forwardingApi.platformPage, { funcs: F.view }, async (req) => platforms.pagePlatforms(db, req.scope, req.query));
  serve(app, forwardingApi.platformDetail, { funcs: F.view }, async (req) => platforms.platformDetail(db, req.scope, req.query.id));
  serve(app, forwardingApi.platformAdd, { funcs: F.add }, async (req) => {
    const key = await forwardingKey(db);
    return mutate(db, req, log('forwardPlatform', 'add', `add the platform ${req.body.code}`, req.body), (q) => platforms.addPlatform(q, req.scope, key, req.body));
  });
  serve(app, forwardingApi.platformUpdate, { funcs: F.edit }, async (req) => {
    const key = await forwardingKey(db);
    return mutate(db, req, log('forwardPlatform', 'update', `change the platform ${req.body.code}`, req.body), (q) => platforms.updatePlatform(q, req.scope, key, req.body));
  });
  serve(app, forwardingApi.platformDel, { funcs: F.remove }, async (req) =>
    mutate(db, req, log('forwardPlatform', 'delete', `delete the platforms ${req.query.ids.join(',')}`, req.query), (q) => platforms.removePlatforms(q, req.scope, req.query.ids)),
  );

  serve(app, forwardingApi.bindPage, { funcs: F.view }, async (req) => bindings.pageBindings(db, req.scope, req.query));
  serve(app, forwardingApi.bindAdd, { funcs: F.add }, async (req) =>
    mutate(db, req, log('forwardBind', 'add', `forward ${req.body.carrierId ? `carrier ${req.body.carrierId}` : `sensor ${req.body.sensorId}`}`, req.body), (q) => bindings.addBinding(q, req.scope, req.body)),
  );
  serve(app, forwardingApi.bindUpdate, { funcs: F.edit }, async (req) =>
    mutate(db, req, log('forwardBind', 'update', `setting ${req.body.id}: exceptions ${req.body.exceptions}, enabled ${req.body.enabled}`, req.body), (q) => bindings.updateBinding(q, req.scope, req.body)),
  );
  serve(app, forwardingApi.bindDel, { funcs: F.remove }, async (req) =>
    mutate(db, req, log('forwardBind', 'delete', `remove the settings ${req.query.ids.join(',')}`, req.query), (q) => bindings.removeBindings(q, req.scope, req.query.ids)),
  );
};
