import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { scoped } from '../../platform/db/scoped.js';
import { localTime } from '../backup/sceneExport.js';
import { carrierSubjects } from '../detaildata/subjects.js';
import { detail as verifyTask } from '../verifytask/verifytask.repository.js';
import type { ExportAsk } from './exports.js';
import type { TableQuery } from '../dm/table.js';

/*
 * The subjects of the exports of lists (exceptions, statistics, a verification task), found in
 * the caller's scope before anything is created: a carrier or task of another customer is a 404.
 */

const day = (ms: number, tz: string) => localTime(ms, tz).slice(0, 10).replace(/-/g, '');

async function callerTz(deps: AppDeps, req: FastifyRequest) {
  const r = await scoped(deps.db, req.scope!).selectFrom('customer as c').select('c.time_zone as tz').where('c.id', '=', req.scope!.customerId).executeTakeFirst();
  return r?.tz ?? '+08:00';
}

export async function askExceptions(deps: AppDeps, req: FastifyRequest, b: { start: number; end: number; carrierIds?: number[]; status?: number; category?: string; format: 'xlsx' | 'csv' }): Promise<ExportAsk> {
  const carrier = b.carrierIds?.length ? (await carrierSubjects(deps.db, req.scope!, b.carrierIds))[0] : undefined;
  const tz = await callerTz(deps, req);
  return {
    source: 'exceptions',
    format: b.format,
    baseName: `exceptions-${carrier ? `${carrier.id}-` : ''}${day(b.start, tz)}-${day(b.end, tz)}`,
    criteria: { start: b.start, end: b.end, carrierIds: b.carrierIds, status: b.status, category: b.category, subject: carrier?.name },
  };
}

export async function askStatistic(deps: AppDeps, req: FastifyRequest, b: { carrierIds: number[]; start: number; end: number; format: 'xlsx' | 'csv' }): Promise<ExportAsk> {
  const carriers = await carrierSubjects(deps.db, req.scope!, [...new Set(b.carrierIds)]);
  const tz = await callerTz(deps, req);
  return {
    source: 'statistic',
    format: b.format,
    baseName: `statistics-${day(b.start, tz)}-${day(b.end, tz)}`,
    criteria: { carrierIds: carriers.map((c) => c.id), start: b.start, end: b.end, subject: carriers.map((c) => c.name).join(', ').slice(0, 200) },
  };
}

export async function askVerifyTask(deps: AppDeps, req: FastifyRequest, b: { id: number; format: 'xlsx' | 'csv' }): Promise<ExportAsk> {
  const t = await verifyTask(deps.db, req.scope!, b.id);
  return { source: 'verifyTask', format: b.format, baseName: `verification-${t.id}`, criteria: { id: t.id, subject: t.name } };
}

/** The monitoring-point table's whole filtered view: its filters and sort as the table asked, named by the day and minute it was asked. */
export async function askMonitorPoints(deps: AppDeps, req: FastifyRequest, b: TableQuery & { format: 'xlsx' | 'csv' }): Promise<ExportAsk> {
  const { format, ...view } = b;
  const at = localTime(Date.now(), await callerTz(deps, req));
  return { source: 'monitorPoints', format, baseName: `monitoring-points-${at.slice(0, 16).replace(/[-:]/g, '').replace(' ', '-')}`, criteria: { ...view, subject: view.search ?? '' } };
}
