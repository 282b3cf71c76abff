import { carrierApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { carrierWithDevices } from '../dm/dm.repository.js';
import * as repo from './carrier.repository.js';
import { ofRecord } from '../syslog/syslog.repository.js';

/** Carriers (monitoring points) of spec §3: zones, contacts, bound devices. */
export const carrierRoutes: Module = (app, { db, bus }) => {
  // A sensor's carrier is part of what ingest keeps of it (live events carry it, and the live
  // stream's scene limit judges by it): a change of bindings makes every replica forget (rare, cheap).
  const rebound = <T>(r: T, bindings: unknown) => (bindings !== undefined && bus.emit('directory', {}), r);

  serve(app, carrierApi.page, { funcs: ['viewCarrier'] }, async (req) => repo.page(db, req.scope, req.query));

  serve(app, carrierApi.detail, { funcs: ['viewCarrier'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, carrierApi.atom, { funcs: ['viewCarrier'] }, async (req) => (await carrierWithDevices(db, req.scope, req.params.id)) ?? Promise.reject(notFound()));

  serve(app, carrierApi.add, { funcs: ['newCarrier'] }, async (req) =>
    mutate(db, req, { module: 'carrier', method: 'add', content: `add carrier ${req.body.name}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)).then((r) =>
      rebound(r, req.body.sensorIds),
    ),
  );

  serve(app, carrierApi.update, { funcs: ['editCarrier'] }, async (req) =>
    mutate(db, req, { module: 'carrier', method: 'update', content: `update carrier ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)).then((r) =>
      rebound(r, req.body.sensorIds),
    ),
  );

  serve(app, carrierApi.alarmSwitch, { funcs: ['editCarrier'] }, async (req) => {
    const { ids, alarmOn, reason } = req.body;
    return mutate(db, req, { module: 'carrier', method: 'alarmSwitch', content: `alarm ${alarmOn ? 'on' : 'off'} for carriers ${ids.join(',')}`, params: req.body }, (q) =>
      repo.alarmSwitch(q, req.scope, ids, alarmOn, reason),
    );
  });

  // A carrier outside the caller's scope (or limit) is 404, like its detail.
  serve(app, carrierApi.operateRecord, { funcs: ['viewCarrier'] }, async (req) => {
    if (!(await repo.detail(db, req.scope, req.query.id))) throw notFound();
    return ofRecord(db, req.scope, 'carrier', req.query.id, req.query);
  });

  serve(app, carrierApi.del, { funcs: ['removeCarrier'] }, async (req) => {
    const { ids } = req.query;
    return mutate(db, req, { module: 'carrier', method: 'del', content: `delete carriers ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids)).then((r) => rebound(r, ids));
  });
};
