import type { FastifyRequest } from 'fastify';
import { Code, EXPORT_MAX_ROWS, EXPORTS_IN_FLIGHT, type ExportCreated, type ExportFormat, type ExportSource } from '@coldwatch/contract';
import type { AppDeps } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { AppError } from '../../platform/http/errors.js';
import { enqueue } from '../../platform/jobs/runner.js';
import { createRecord, inFlight, setJob } from './download.repository.js';

/*
 * Asking for an export (docs/exports.md "Asking"): the subject was found in the caller's scope
 * and the span checked by the route; here the limits are held (rows, exports in flight), and the
 * record and the run of the export job that makes it are created in one transaction with the
 * system-log row. Refused, nothing is created.
 */

export const EXPORT_JOB = 'export';
/** The runner's lane of long work: exports run one at a time there, beside (never before) the periodic jobs. */
export const EXPORT_LANE = 'export';

/** What the job needs beyond the record: the data scope of the user who asked (its customers and scene limit then). */
export interface ExportPayload {
  recordId: number;
  customerId: number;
  scope: { customerIds: number[] | null; sceneIds: number[] | null };
}

/** The data scope the job reads in: the asking user's customers and scene limit, as the repositories take them (sceneLimit.ts applies it). */
const dataScopeOf = ({ customerIds, sceneIds }: { customerIds: number[] | null; sceneIds: number[] | null }): ExportPayload['scope'] => ({ customerIds, sceneIds });

export interface ExportAsk {
  source: ExportSource;
  format: ExportFormat;
  /** The file's name without its extension. */
  baseName: string;
  /** What was asked, kept on the record (shown, and asked again by "generate again"). */
  criteria: Record<string, unknown>;
  /** About how many rows it will hold, when known: over EXPORT_MAX_ROWS it is refused. */
  rows?: number;
}

export async function askExport(deps: AppDeps, req: FastifyRequest, ask: ExportAsk): Promise<ExportCreated> {
  const scope = req.scope!;
  if (ask.rows !== undefined && ask.rows > EXPORT_MAX_ROWS) {
    throw new AppError(Code.FAILED, 'errors.export.tooManyRows', 200, undefined, { max: EXPORT_MAX_ROWS.toLocaleString('en-US'), n: ask.rows.toLocaleString('en-US') });
  }
  if ((await inFlight(deps.db, scope)) >= EXPORTS_IN_FLIGHT) throw new AppError(Code.FAILED, 'errors.export.inFlight', 200, undefined, { max: EXPORTS_IN_FLIGHT });
  const name = `${ask.baseName}.${ask.format}`;
  const criteria = { ...ask.criteria, format: ask.format, locale: req.locale ?? 'zh-CN' };
  const created = await mutate(deps.db, req, { module: 'exportTask', method: ask.source, content: `export ${name}`, params: criteria }, async (q) => {
    const rec = await createRecord(q, { customerId: scope.customerId, userId: scope.userId, kind: 'export', source: ask.source, name, format: ask.format, criteria });
    const payload: ExportPayload = { recordId: rec.id, customerId: rec.customerId, scope: dataScopeOf(scope) };
    await setJob(q, rec, await enqueue(q, EXPORT_JOB, payload as unknown as Record<string, unknown>, { maxAttempts: 3 }));
    return { id: rec.id, key: rec.key, name };
  });
  void deps.jobs?.kick(EXPORT_LANE);
  return created;
}
