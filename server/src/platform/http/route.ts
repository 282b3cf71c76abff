import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code, envelope, id, translate, type Locale, type RouteDef } from '@coldwatch/contract';
import { ok } from './envelope.js';

/** The Fastify instance that routes are served on: its schemas are zod's. */
export type ZApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** What the guard needs of a route (platform/auth/guard.ts). */
export interface Access {
  /** No session needed (login, captcha, registration). */
  public?: boolean;
  /** Function codes of spec §6 the caller must all hold. */
  funcs?: string[];
  /** An answer that stays open (SSE). */
  stream?: boolean;
  /**
   * A POST the spec names that changes nothing (§7 download/record/progress, polled every
   * second): not a write, so it leaves no system-log row (syslog.audit.test.ts skips it).
   */
  read?: boolean;
  /**
   * Invalid input reaches the handler as `req.validationError` instead of a 400, for the
   * calls whose §8 answers name a specific code (user 412/414) or whose refusal must leave
   * its system-log row.
   */
  attachValidation?: boolean;
  /** Per client address (@fastify/rate-limit): the sign-in routes. */
  rateLimit?: { max: number; timeWindow: number };
}

/** A result answered with a message other than the plain "success" (spec §8 "reset success", a login in the user's stored language). */
export class Said<T> {
  constructor(
    readonly result: T,
    readonly msgKey: string,
    readonly locale?: Locale,
  ) {}
}
export const said = <T>(result: T, msgKey: string, locale?: Locale) => new Said(result, msgKey, locale);

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteRequest<D extends RouteDef> = FastifyRequest<{
  Querystring: Out<NonNullable<D['query']>>;
  Body: Out<NonNullable<D['body']>>;
  Params: Out<NonNullable<D['params']>>;
}>;

type Answer<D extends RouteDef> = D extends { raw: 'file' | 'stream' } ? unknown : z.input<D['result']> | Said<z.input<D['result']>>;

/** A field outside the schema is refused with its name (HTTP 400), not silently dropped. */
const strict = (s: z.ZodType) => (s instanceof z.ZodObject ? s.strict() : s);

/** The names of a path's parameters: `/service/gateway/:id` → ['id']. */
export const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** A path parameter that names a record: `:id`, `:sensorId`. */
const isIdName = (name: string) => /^id$|Id$/.test(name);

/**
 * The schema that validates a route's path parameters, so that no path text reaches a handler
 * (and its SQL) unchecked. A parameter that names a record (`:id`, `:…Id`) and that the
 * definition does not declare is derived from the path: the contract's `id`, a positive integer
 * within PostgreSQL's integer, so that 12 letters, a decimal or 20 digits are a 400 naming it and
 * never reach SQL. Any other parameter (`:type`, `:sn`) must be declared in the definition's
 * `params`, a z.object, since only the contract knows its values: a definition that leaves one
 * out is refused when the server starts.
 */
export function paramsSchema(def: Pick<RouteDef, 'method' | 'path' | 'params'>): z.ZodType | undefined {
  const where = `${def.method} ${def.path}`;
  if (def.params && !(def.params instanceof z.ZodObject)) throw new Error(`${where}: params must be a z.object`);
  const declared = def.params as z.ZodObject | undefined;
  const missing = pathParamNames(def.path).filter((n) => !(declared && n in declared.shape));
  const undeclared = missing.filter((n) => !isIdName(n));
  if (undeclared.length) throw new Error(`${where}: params must declare ${undeclared.map((n) => `:${n}`).join(', ')} (only record ids, :id and :…Id, are derived from the path)`);
  if (!missing.length) return declared;
  const derived = Object.fromEntries(missing.map((n) => [n, id]));
  return declared ? declared.safeExtend(derived) : z.object(derived);
}

/**
 * Registers one operation of the contract: method, path, input schemas, the answer's schema
 * (wrapped in the envelope unless `raw`), its OpenAPI summary and tag, and the guard's
 * access. The handler returns the `result`; the envelope is added here. The answer is
 * serialised through its schema: a field the schema does not name never leaves the server,
 * and an answer that does not match it is an error (a failing test), not a silent leak. Path
 * parameters are always validated (paramsSchema), declared or not.
 */
export function serve<D extends RouteDef>(
  app: ZApp,
  def: D,
  access: Access,
  handler: (req: RouteRequest<D>, reply: FastifyReply) => Promise<Answer<D>>,
) {
  const response = def.raw === 'file' || def.raw === 'stream' ? undefined : { 200: def.raw === 'json' ? def.result : envelope(def.result) };
  const { attachValidation, ...config } = access;
  const params = paramsSchema(def);
  app.route({
    method: def.method,
    url: def.path,
    config,
    ...(attachValidation ? { attachValidation } : {}),
    schema: {
      summary: def.summary,
      tags: [def.tag],
      ...(def.query ? { querystring: strict(def.query) } : {}),
      ...(def.body ? { body: strict(def.body) } : {}),
      ...(params ? { params } : {}),
      ...(response ? { response } : {}),
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const result = await handler(req as RouteRequest<D>, reply);
      if (def.raw) return result;
      if (result instanceof Said) return { state: { code: Code.OK, msg: translate(result.msgKey, result.locale ?? req.locale) }, result: result.result };
      return ok(result, req.locale);
    },
  });
}
