import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveSession, revokedReason, SESSION_COOKIE } from './session.js';
import { AppError, noPermission, sessionExpired } from '../http/errors.js';
import { Code } from '@coldwatch/contract';
import type { Scope } from './scope.js';
import type { Db } from '../db/client.js';

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope;
  }
  interface FastifyContextConfig {
    /** No session needed (login, captcha, ingest with its own auth, health). */
    public?: boolean;
    /** Function codes of spec §6 the caller must all hold. */
    funcs?: string[];
  }
}

/**
 * Every `/service/` route needs a session unless it says `config.public`; routes name the
 * function codes they need in `config.funcs`. Secure by default: a new route is guarded
 * without anyone remembering to guard it.
 */
export function registerGuard(app: FastifyInstance, db: Db) {
  app.decorateRequest('scope', null as unknown as Scope);
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const config = req.routeOptions.config ?? {};
    if (config.public || !req.url.startsWith('/service/')) return;
    const token = (req as any).cookies?.[SESSION_COOKIE] as string | undefined;
    const scope = await resolveSession(db, token);
    if (!scope) {
      if ((await revokedReason(db, token)) === 'conflict') throw new AppError(Code.LOGIN_CONFLICT, 'errors.loginConflict', 401);
      throw sessionExpired();
    }
    req.scope = scope;
    for (const f of config.funcs ?? []) if (!scope.funcs.has(f)) throw noPermission();
  });
}
