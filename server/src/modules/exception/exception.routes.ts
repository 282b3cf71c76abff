import type { FastifyRequest } from 'fastify';
import { exceptionApi, type ExceptionEvent, type Signature } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import type { Queryable } from '../../platform/db/client.js';
import { writeLog, type AuditEntry } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './exception.repository.js';
import * as handling from './handling.js';
import { exceptionLinkUrl, readExceptionLink, signExceptionLink } from '../../alarm/exceptionLink.js';
import { sharedException } from './shared.js';
import { signedStep, type Signer } from './signing.js';

/**
 * Exception records of spec §3/§4 (section /abnormal/dataex, the home widgets), their signed
 * handling (docs/alarms.md "Handling and signatures") and the /exDetail link.
 */
export const exceptionRoutes: Module = (app, { db, bus, config }) => {
  const view = { funcs: ['viewEx'] };
  const edit = { funcs: ['editEx'] };

  serve(app, exceptionApi.page, view, async (req) => repo.page(db, req.scope, req.query));
  serve(app, exceptionApi.detail, view, async (req) => (await repo.detail(db, req.scope, req.query.id)) ?? Promise.reject(notFound()));
  serve(app, exceptionApi.latest, view, async (req) => repo.latest(db, req.scope, req.query.limit, req.query.status));
  serve(app, exceptionApi.stats, view, async (req) => repo.stats(db, req.scope, req.query));

  /** A signed step (signing.ts signedStep); the lists are told after the commit. */
  const signed = async <T>(
    req: FastifyRequest,
    entry: AuditEntry,
    sign: Signature | undefined,
    check: () => Promise<void>,
    write: (q: Queryable, signer: Signer) => Promise<{ result: T; events: ExceptionEvent[] }>,
  ): Promise<T> => {
    const done = await signedStep(db, req, entry, sign, check, write);
    for (const e of done.events) bus.emit('exception', e);
    return done.result;
  };

  serve(app, exceptionApi.handle, edit, async (req) => {
    const { sign: _, ...b } = req.body;
    const entry = { module: 'exception', method: 'handle', content: `handle exceptions ${b.ids.join(',')}`, params: b };
    return signed(
      req,
      entry,
      req.body.sign,
      async () => {
        const rows = await handling.targets(db, req.scope, b.ids);
        handling.checkHandle(rows);
        await handling.reasonFor(db, req.scope, b.reasonId, rows, req.locale);
      },
      (q, signer) => handling.handle(q, req.scope, signer, b.ids, b.reasonId, b, req.locale),
    );
  });

  serve(app, exceptionApi.correct, edit, async (req) => {
    const { sign: _, ...b } = req.body;
    const entry = { module: 'exception', method: 'correct', content: `correct the handling of exception ${b.id}`, params: b };
    return signed(
      req,
      entry,
      req.body.sign,
      async () => {
        const rows = await handling.targets(db, req.scope, [b.id]);
        handling.checkCorrect(rows);
        await handling.reasonFor(db, req.scope, b.reasonId, rows, req.locale);
      },
      (q, signer) => handling.correct(q, req.scope, signer, b.id, b.reasonId, b, req.locale),
    );
  });

  serve(app, exceptionApi.close, edit, async (req) => {
    const { ids } = req.query;
    const comment = req.body?.comment ?? '';
    const entry = { module: 'exception', method: 'close', content: `close exceptions ${ids.join(',')}`, params: { ids, comment } };
    return signed(
      req,
      entry,
      req.body?.sign,
      async () => handling.checkClose(await handling.targets(db, req.scope, ids)),
      (q, signer) => handling.close(q, req.scope, signer, ids, comment),
    );
  });

  serve(app, exceptionApi.comment, edit, async (req) => {
    const { sign: _, ...b } = req.body;
    const entry = { module: 'exception', method: 'comment', content: `comment on exception ${b.id}`, params: b };
    return signed(
      req,
      entry,
      req.body.sign,
      async () => void (await handling.targets(db, req.scope, [b.id])),
      (q, signer) => handling.comment(q, req.scope, signer, b.id, b.comment, b.meaning),
    );
  });

  // A link made by a signed-in user is logged with who made it: whoever holds it sees the exception for 7 days.
  serve(app, exceptionApi.link, view, async (req) => {
    const [row] = await handling.targets(db, req.scope, [req.query.id]);
    const { token, exp } = await signExceptionLink(db, row.id, row.customer_id);
    await writeLog(db, req, { module: 'exception', method: 'link', content: `link to exception ${row.id}`, params: { id: row.id, expiresAt: exp } }, 1);
    return { url: exceptionLinkUrl(config.publicUrl ?? `${req.protocol}://${req.host}`, token), expiresAt: exp };
  });

  serve(app, exceptionApi.shared, { public: true }, async (req) => sharedException(db, await readExceptionLink(db, req.query.token)));
};
