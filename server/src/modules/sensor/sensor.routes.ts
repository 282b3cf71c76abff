import multipart from '@fastify/multipart';
import { gasApi, magnetApi, sensorApi, type FuncObject, type SensorKind } from '@coldwatch/contract';
import type { AppDeps, Module } from '../../deps.js';
import type { ZApp } from '../../platform/http/route.js';
import { mutate } from '../../platform/audit/audit.js';
import { readLogged } from '../../platform/http/upload.js';
import { readXlsxUpload } from '../../platform/xlsx/sheet.js';
import { importSensors, sensorTemplate } from './sensor.import.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { scoped } from '../../platform/db/scoped.js';
import { setDeviceStatus } from '../shared/records.js';
import * as repo from './sensor.repository.js';

/**
 * Sensors of spec §3: enrolment, binding to a gateway and a carrier, latest values. The device
 * menu shows them as three kinds, each with its page, function codes and import (spec §2
 * /device/sensor, /device/gas, /device/magnetism; §7 sensor/importSensor, gas/import,
 * magnetism/import): radio sensors, gas detectors and door magnets, all sensor rows.
 */
export const sensorRoutes: Module = async (app, deps) => {
  const { db } = deps;
  serve(app, sensorApi.detail, { funcs: ['viewSensor'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, sensorApi.ofType, { funcs: ['viewSensor'] }, async (req) => repo.listOfType(db, req.scope, req.params.type));

  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 5 } });

  const sensor = { ...sensorApi, importFile: sensorApi.importSensor, kind: 'sensor' as const };
  kindRoutes(app, deps, sensor, 'Sensor', [sensorApi.update, sensorApi.upt]);
  kindRoutes(app, deps, gasApi, 'Gas');
  kindRoutes(app, deps, magnetApi, 'Magnetism');
};

type KindApi = Pick<typeof gasApi, 'add' | 'update' | 'setStatus' | 'del' | 'importFile' | 'importTemplate'> & { page: typeof sensorApi.page | typeof gasApi.page; kind: SensorKind };

/** The routes of one kind: its list, add, update, stop/enable, delete, import and template, under its function codes. */
function kindRoutes(app: ZApp, { db, bus }: AppDeps, api: KindApi, object: FuncObject, updates: (typeof api.update | typeof sensorApi.upt)[] = [api.update]) {
  const { kind } = api;
  // The sensor page without a kind filter lists every sensor row (pickers); the kind pages only theirs.
  serve(app, api.page as typeof gasApi.page, { funcs: [`view${object}`] }, async (req) => repo.page(db, req.scope, kind === 'sensor' ? req.query : { ...req.query, kind }));

  serve(app, api.add, { funcs: [`new${object}`] }, async (req) => {
    const r = await mutate(db, req, { module: kind, method: 'add', content: `add ${kind} ${req.body.devNo}`, params: req.body }, (q) => repo.add(q, req.scope, req.body, kind === 'sensor' ? undefined : kind));
    bus.emit('directory', { sensors: [req.body.devNo] });
    return r;
  });

  // The spec's client saves sensor fields with POST /service/sensor/upt; PUT /update is the same call in the house style.
  for (const def of updates) {
    serve(app, def as typeof api.update, { funcs: [`edit${object}`] }, async (req) => {
      const r = await mutate(db, req, { module: kind, method: 'update', content: `update ${kind} ${req.body.id}`, params: req.body }, (q) =>
        repo.update(q, req.scope, req.body, kind === 'sensor' ? undefined : kind),
      );
      bus.emit('directory', { sensors: [r.oldDevNo, req.body.devNo] });
      return { id: r.id };
    });
  }

  serve(app, api.importFile, { funcs: [`new${object}`] }, async (req) => {
    const entry = { module: kind, method: 'import', content: `import ${kind}` };
    const data = await readLogged(db, req, entry, () => readXlsxUpload(req));
    const r = await mutate(db, req, { ...entry, params: { bytes: data.length } }, (q) => importSensors(q, req.scope, data, req.query.customerId, kind));
    bus.emit('directory', { sensors: r.devNos });
    return { imported: r.imported };
  });

  serve(app, api.importTemplate, { funcs: [`new${object}`] }, async (req, reply) => {
    reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${kind}-import-template.xlsx"`)
      .header('x-content-type-options', 'nosniff');
    return sensorTemplate(req.locale ?? 'zh-CN', kind);
  });

  // Stopped: its messages are refused with a logged reason; the directory forgets it and open sessions close at once.
  serve(app, api.setStatus, { funcs: [`edit${object}`] }, async (req) => {
    const { ids, stopped } = req.body;
    const changed = await mutate(db, req, { module: kind, method: stopped ? 'stop' : 'enable', content: `${stopped ? 'stop' : 'enable'} ${kind} ${ids.join(',')}`, params: req.body }, async (q) => {
      if (kind !== 'sensor') await repo.idsOfKind(scoped(q, req.scope), ids, kind);
      return setDeviceStatus(scoped(q, req.scope), req.scope, 'sensor', ids, stopped);
    });
    if (changed.length) bus.emit('directory', { sensors: changed.map((c) => c.key), close: true });
    for (const c of changed) bus.emit('deviceStatus', { customerId: c.customerId, kind: 'sensor', id: c.id, status: c.status });
    return { changed: changed.length };
  });

  serve(app, api.del, { funcs: [`remove${object}`] }, async (req) => {
    const { ids } = req.query;
    const r = await mutate(db, req, { module: kind, method: 'del', content: `delete ${kind} ${ids.join(',')}`, params: { ids } }, (q) => repo.remove(q, req.scope, ids, kind === 'sensor' ? undefined : kind));
    bus.emit('directory', { sensors: r.devNos });
    return { deleted: r.deleted };
  });
}
