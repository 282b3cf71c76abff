import { configApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import { scoped } from '../../platform/db/scoped.js';
import { publishCommands } from './publish.js';
import * as repo from './config.repository.js';

/**
 * Parameter configuration of sensors (spec §3, §4, §5; device-protocol.md down/config):
 * `POST /service/sensor/config` writes one command per device and publishes each to its gateway
 * after the commit; a gateway on HTTP takes them from `GET /ingest/v1/{sn}/commands`. The
 * config log (/OperateRecord) lists them; the job `config-timeout` fails those never answered.
 */
export const configRoutes: Module = (app, deps) => {
  const { db } = deps;
  serve(app, configApi.issue, { funcs: ['editSensor'] }, async (req) => {
    const cmds = await mutate(db, req, { module: 'sensor', method: 'config', content: `configure sensors ${req.body.ids.join(',')} (${req.body.kind})`, params: req.body }, (q) =>
      repo.issue(q, req.scope, req.body),
    );
    return { commands: cmds.length, published: await publishCommands(deps, scoped(db, req.scope), 'config', cmds) };
  });
  serve(app, configApi.log, { funcs: ['viewSensor'] }, async (req) => repo.configLog(db, req.scope, req.query));
  serve(app, configApi.del, { funcs: ['editSensor'] }, async (req) =>
    mutate(db, req, { module: 'sensor', method: 'configDel', content: `delete configuration commands ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
};
