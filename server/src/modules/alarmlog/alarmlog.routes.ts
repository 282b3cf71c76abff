import { alarmLogApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './alarmlog.repository.js';

/** Spec §2 /noti/alarmLog: the alarm-switch log (function object AlarmRecord). */
export const alarmLogRoutes: Module = (app, { db }) => {
  serve(app, alarmLogApi.page, { funcs: ['viewAlarmRecord'] }, async (req) => repo.page(db, req.scope, req.query));
};
