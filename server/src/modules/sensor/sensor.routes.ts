import multipart from '@fastify/multipart';
import { sensorApi } from '@coldwatch/contract';
import type { Module } from '../index.js';
import { mutate } from '../../platform/audit/audit.js';
import { readLogged } from '../../platform/http/upload.js';
import { readXlsxUpload } from '../../platform/xlsx/sheet.js';
import { importSensors, sensorTemplate } from './sensor.import.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { scoped } from '../../platform/db/scoped.js';
import { setDeviceStatus } from '../dm/records.js';
import * as repo from './sensor.repository.js';

/** Sensors of spec §3: enrolment, binding to a gateway and a carrier, latest values. */
export const sensorRoutes: Module = async (app, { db, bus }) => {
  serve(app, sensorApi.page, { funcs: ['viewSensor'] }, async (req) => repo.page(db, req.scope, req.query));

  serve(app, sensorApi.detail, { funcs: ['viewSensor'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));

  serve(app, sensorApi.ofType, { funcs: ['viewSensor'] }, async (req) => repo.listOfType(db, req.scope, req.params.type));

  serve(app, sensorApi.add, { funcs: ['newSensor'] }, async (req) => {
    const r = await mutate(db, req, { module: 'sensor', method: 'add', content: `add sensor ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body));
    bus.emit('directory', { sensors: [req.body.devNo] });
    return r;
  });

  // The spec's client saves sensor fields with POST /service/sensor/upt; PUT /update is the same call in the house style.
  for (const def of [sensorApi.update, sensorApi.upt]) {
    serve(app, def, { funcs: ['editSensor'] }, async (req) => {
      const r = await mutate(db, req, { module: 'sensor', method: 'update', content: `update sensor ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body));
      bus.emit('directory', { sensors: [r.oldDevNo, req.body.devNo] });
      return { id: r.id };
    });
  }

  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 5 } });

  serve(app, sensorApi.importSensor, { funcs: ['newSensor'] }, async (req) => {
    const entry = { module: 'sensor', method: 'import', content: 'import sensors' };
    const data = await readLogged(db, req, entry, () => readXlsxUpload(req));
    const r = await mutate(db, req, { ...entry, params: { bytes: data.length } }, (q) => importSensors(q, req.scope, data, req.query.customerId));
    bus.emit('directory', { sensors: r.devNos });
    return { imported: r.imported };
  });

  serve(app, sensorApi.importTemplate, { funcs: ['newSensor'] }, async (req, reply) => {
    reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="sensor-import-template.xlsx"`)
      .header('x-content-type-options', 'nosniff');
    return sensorTemplate(req.locale ?? 'zh-CN');
  });

  // Stopped: its messages are refused with a logged reason; the directory forgets it and open sessions close at once.
  serve(app, sensorApi.setStatus, { funcs: ['editSensor'] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: 'sensor', method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} sensors ${ids.join(',')}`, params: req.body }, (q) =>
      setDeviceStatus(scoped(q, req.scope), req.scope, 'sensor', ids, stopped),
    );
    if (changed.length) bus.emit('directory', { sensors: changed.map((c) => c.key), close: true });
    for (const c of changed) bus.emit('deviceStatus', { customerId: c.customerId, kind: 'sensor', id: c.id, status: c.status });
    return { changed: changed.length };
  });

  serve(app, sensorApi.del, { funcs: ['removeSensor'] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: 'sensor', method: 'del', content: `delete sensors ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids));
    bus.emit('directory', { sensors: r.devNos });
    return { deleted: r.deleted };
  });
};
