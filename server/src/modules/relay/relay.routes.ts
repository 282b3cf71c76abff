import { relayApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { scoped } from '../../platform/db/scoped.js';
import { publishCommands } from '../config/publish.js';
import * as repo from './relay.repository.js';
import { endForStop, switchLog, switchRelays } from './relay.switch.js';

/**
 * Relays (spec §2 /device/relay, /RelayDetail; §3 Relay; §4 Device switch): the list, enrolment,
 * stop and enable, switching (published to the gateways after the commit) and the switching log.
 * The job `relay-switch` ends switches at their cancel time and keeps intelligent ones following
 * their condition.
 */
export const relayRoutes: Module = (app, deps) => {
  const { db } = deps;
  serve(app, relayApi.page, { funcs: ['viewRelay'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, relayApi.detail, { funcs: ['viewRelay'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, relayApi.add, { funcs: ['newRelay'] }, async (req) =>
    mutate(db, req, { module: 'relay', method: 'add', content: `add relay ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );
  serve(app, relayApi.update, { funcs: ['editRelay'] }, async (req) =>
    mutate(db, req, { module: 'relay', method: 'update', content: `update relay ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );
  serve(app, relayApi.setStatus, { funcs: ['editRelay'] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: 'relay', method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} relays ${ids.join(',')}`, params: req.body }, async (q) => {
      const k = scoped(q, req.scope);
      await repo.relaysInScope(k, req.scope, ids);
      if (stopped) await endForStop(k, ids, req.scope.name || req.scope.account);
      const rows = await k.updateTable('relay').set({ status: stopped ? 2 : 0 }).where('id', 'in', ids).where('status', stopped ? '<>' : '=', 2).returning('id').execute();
      return rows.length;
    });
    return { changed };
  });
  serve(app, relayApi.del, { funcs: ['removeRelay'] }, async (req) =>
    mutate(db, req, { module: 'relay', method: 'del', content: `delete relays ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
  serve(app, relayApi.switch, { funcs: ['editRelay'] }, async (req) => {
    const b = req.body;
    const r = await mutate(db, req, { module: 'relay', method: 'switch', content: `switch relays ${b.ids.join(',')} (${b.mode}${b.on === undefined ? '' : b.on ? ' on' : ' off'})`, params: b }, (q) =>
      switchRelays(q, req.scope, b),
    );
    return { switched: r.switched, published: await publishCommands(deps, scoped(db, req.scope), 'output', r.commands) };
  });
  serve(app, relayApi.switchLog, { funcs: ['viewRelay'] }, async (req) => switchLog(db, req.scope, req.query));
};
