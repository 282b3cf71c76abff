import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyRequest, RouteOptions } from 'fastify';
import { resolveSession, revokedReason, SESSION_COOKIE } from './session.js';
import { AppError, noPermission, sessionExpired } from '../http/errors.js';
import { requestLocale } from '../http/envelope.js';
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

/** One registered route as the guard sees it: what it is and what it asks of a caller. */
export interface GuardedRoute {
  method: string;
  url: string;
  public: boolean;
  funcs: string[];
}

/** A signed-in caller refused for a function it lacks (500102): the audit log records it. */
export type OnRefused = (req: FastifyRequest, missing: string) => Promise<void>;

export interface Guard {
  /** Every route of the app with its access, in registration order (the anonymous walk reads it). */
  routes: GuardedRoute[];
  /** Registers a plugin every route of which is public (the web app's files). */
  registerPublic<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, opts: O): Promise<void>;
}

/**
 * Deny by default, on the route the router matched: every route needs a session unless its
 * definition says `config.public`; `config.funcs` names the function codes it needs. The
 * decision reads only what the router resolved (`req.routeOptions`), never the raw request
 * target, so `%73ervice`, `//service`, `/x/../service` or an absolute-form target reach the
 * same guard as the plain path. Runs at onRequest, before the body is read: a caller without a
 * session does not get its body parsed.
 *
 * A request that matched no route meets the not-found handler, which answers 404/405 or the web
 * app's index page and runs no handler of ours.
 */
export function registerGuard(app: FastifyInstance, db: Db, onRefused?: OnRefused): Guard {
  const routes: GuardedRoute[] = [];
  let publicPlugins = 0;
  app.addHook('onRoute', (r: RouteOptions) => {
    // Fastify hands each route's config object to its requests as they are; a plugin's routes
    // are marked here while it registers (registerPublic), before any request exists.
    if (publicPlugins > 0) r.config = { ...(r.config as object), public: true };
    const config = (r.config ?? {}) as { public?: boolean; funcs?: string[] };
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, public: !!config.public, funcs: config.funcs ?? [] });
  });

  app.decorateRequest('scope', null as unknown as Scope);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.is404) return;
    const config = req.routeOptions.config ?? {};
    if (config.public) return;
    const token = req.cookies?.[SESSION_COOKIE];
    const scope = await resolveSession(db, token);
    if (!scope) {
      if ((await revokedReason(db, token)) === 'conflict') throw new AppError(Code.LOGIN_CONFLICT, 'errors.loginConflict', 401);
      throw sessionExpired();
    }
    req.scope = scope;
    if (scope.locale) req.locale = requestLocale(req, scope.locale);
    const missing = (config.funcs ?? []).find((f) => !scope.funcs.has(f));
    if (missing) {
      await onRefused?.(req, missing);
      throw noPermission();
    }
  });

  return {
    routes,
    async registerPublic(plugin, opts) {
      publicPlugins++;
      try {
        await app.register(plugin as FastifyPluginAsync<FastifyPluginOptions>, opts);
      } finally {
        publicPlugins--;
      }
    },
  };
}
