import { gatewayApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { scoped } from '../../platform/db/scoped.js';
import { setDeviceStatus } from '../shared/records.js';
import * as repo from './gateway.repository.js';

/** Gateways of spec §3: enrolment with a one-time secret, status and heartbeat fields. */
export const gatewayRoutes: Module = (app, { db, bus }) => {
  serve(app, gatewayApi.page, { funcs: ['viewGateway'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, gatewayApi.heartbeats, { funcs: ['viewGateway'] }, async (req) => repo.heartbeats(db, req.scope, req.query));

  serve(app, gatewayApi.detail, { funcs: ['viewGateway'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, gatewayApi.withSensors, { funcs: ['viewGateway'] }, async (req) => (await repo.withSensors(db, req.scope, req.params.id)) ?? Promise.reject(notFound()));

  serve(app, gatewayApi.add, { funcs: ['newGateway'] }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'add', content: `add gateway ${req.body.sn}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    bus.emit('directory', { gateways: [r.sn] });
    return r;
  });

  serve(app, gatewayApi.update, { funcs: ['editGateway'] }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'update', content: `update gateway ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
    const renamed = r.oldSn !== req.body.sn;
    bus.emit('directory', { gateways: [r.oldSn, req.body.sn], close: renamed });
    return { id: r.id };
  });

  serve(app, gatewayApi.resetSecret, { funcs: ['editGateway'] }, async (req) => {
    const r = await mutate(db, req, { module: 'gateway', method: 'resetSecret', content: `new secret for gateway ${req.query.id}`, params: req.query }, (q) =>
      repo.resetSecret(q, req.scope, req.query.id),
    );
    bus.emit('directory', { gateways: [r.sn], close: true });
    return r;
  });

  // Stopped: its messages are refused with a logged reason; the directory forgets it and open sessions close at once.
  serve(app, gatewayApi.setStatus, { funcs: ['editGateway'] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: 'gateway', method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} gateways ${ids.join(',')}`, params: req.body }, (q) =>
      setDeviceStatus(scoped(q, req.scope), req.scope, 'gateway', ids, stopped),
    );
    if (changed.length) bus.emit('directory', { gateways: changed.map((c) => c.key), close: true });
    for (const c of changed) bus.emit('deviceStatus', { customerId: c.customerId, kind: 'gateway', id: c.id, status: c.status });
    return { changed: changed.length };
  });

  serve(app, gatewayApi.del, { funcs: ['removeGateway'] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'gateway', method: 'del', content: `delete gateways ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    bus.emit('directory', { gateways: r.sns, close: true });
    return { deleted: r.deleted };
  });
};
