import { rangeApi, unitApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './unit.repository.js';

/**
 * Units of measure (spec §2 /sys/unitMeasurement, menu probeunit: platform level) and
 * monitoring ranges (§2 /arch/detection, menu proberange: each customer its own).
 */
export const unitRoutes: Module = (app, { db }) => {
  serve(app, unitApi.list, {}, async (req) => repo.listUnits(db, req.scope));
  serve(app, unitApi.page, { funcs: ['viewProbeUnit'] }, async (req) => repo.pageUnits(db, req.scope, req.query));
  serve(app, unitApi.add, { funcs: ['newProbeUnit'] }, async (req) =>
    mutate(db, req, { module: 'unit', method: 'add', content: `add unit ${req.body.unit}`, params: req.body }, (q) => repo.addUnit(q, req.body)),
  );
  serve(app, unitApi.update, { funcs: ['editProbeUnit'] }, async (req) =>
    mutate(db, req, { module: 'unit', method: 'update', content: `update unit ${req.body.id}`, params: req.body }, (q) => repo.updateUnit(q, req.body)),
  );
  serve(app, unitApi.del, { funcs: ['removeProbeUnit'] }, async (req) =>
    mutate(db, req, { module: 'unit', method: 'del', content: `delete units ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.removeUnits(q, req.scope, req.query.ids)),
  );

  serve(app, rangeApi.list, {}, async (req) => repo.listRanges(db, req.scope, req.query));
  serve(app, rangeApi.page, { funcs: ['viewRange'] }, async (req) => repo.pageRanges(db, req.scope, req.query));
  serve(app, rangeApi.detail, { funcs: ['viewRange'] }, async (req) => (await repo.rangeDetail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, rangeApi.add, { funcs: ['newRange'] }, async (req) =>
    mutate(db, req, { module: 'range', method: 'add', content: `add range for unit ${req.body.unitId}`, params: req.body }, (q) => repo.addRange(q, req.scope, req.body)),
  );
  serve(app, rangeApi.update, { funcs: ['editRange'] }, async (req) =>
    mutate(db, req, { module: 'range', method: 'update', content: `update range ${req.body.id}`, params: req.body }, (q) => repo.updateRange(q, req.scope, req.body)),
  );
  serve(app, rangeApi.del, { funcs: ['removeRange'] }, async (req) =>
    mutate(db, req, { module: 'range', method: 'del', content: `delete ranges ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.removeRanges(q, req.scope, req.query.ids)),
  );
};
