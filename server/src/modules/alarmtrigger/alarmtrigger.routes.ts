import { alarmTriggerApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './alarmtrigger.repository.js';
import { pause } from './pause.repository.js';

/**
 * Spec §2 /sysAlarm (function object AlarmTrigger): the alarm triggers, and the alarm pause of
 * spec §4 (a carrier's alarm setting, changed with editCarrier like the switch).
 */
export const alarmTriggerRoutes: Module = (app, { db }) => {
  serve(app, alarmTriggerApi.page, { funcs: ['viewAlarmTrigger'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, alarmTriggerApi.detail, { funcs: ['viewAlarmTrigger'] }, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, alarmTriggerApi.options, { funcs: ['viewAlarmTrigger'] }, async (req) => repo.options(db, req.scope, req.query.customerId));
  serve(app, alarmTriggerApi.add, { funcs: ['newAlarmTrigger'] }, async (req) =>
    mutate(db, req, { module: 'alarmTrigger', method: 'add', content: `add alarm trigger ${req.body.name}`, params: req.body }, (q) => repo.add(q, req.scope, req.body)),
  );
  serve(app, alarmTriggerApi.update, { funcs: ['editAlarmTrigger'] }, async (req) =>
    mutate(db, req, { module: 'alarmTrigger', method: 'update', content: `update alarm trigger ${req.body.id}`, params: req.body }, (q) => repo.update(q, req.scope, req.body)),
  );
  serve(app, alarmTriggerApi.del, { funcs: ['removeAlarmTrigger'] }, async (req) =>
    mutate(db, req, { module: 'alarmTrigger', method: 'del', content: `delete alarm triggers ${req.query.ids.join(',')}`, params: req.query }, (q) => repo.remove(q, req.scope, req.query.ids)),
  );
  serve(app, alarmTriggerApi.pause, { funcs: ['editCarrier'] }, async (req) =>
    mutate(
      db,
      req,
      { module: 'carrier', method: 'alarmPause', content: req.body.until === null ? `alarm resumed for carriers ${req.body.ids.join(',')}` : `alarm paused for carriers ${req.body.ids.join(',')} until ${new Date(req.body.until).toISOString()}`, params: req.body },
      (q) => pause(q, req.scope, req.body),
    ),
  );
};
