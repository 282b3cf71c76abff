import { syslogApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './syslog.repository.js';

/**
 * The system log of spec §3 (section /noti/sysLog): every mutation's time, module, operator,
 * method, content, parameters and result. Access level 1 (the menu entry's level): customer
 * administrators see their customer's rows, platform users every row.
 */
export const syslogRoutes: Module = (app, { db }) => {
  serve(app, syslogApi.page, { funcs: ['viewSysLog'] }, async (req) => repo.page(db, req.scope, req.query));
  serve(app, syslogApi.modules, { funcs: ['viewSysLog'] }, async (req) => repo.modules(db, req.scope));
};
