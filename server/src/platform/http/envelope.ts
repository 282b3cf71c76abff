import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { Code, translate, toLocale, DEFAULT_LOCALE, type Locale } from '@coldwatch/contract';
import { AppError, outOfRange } from './errors.js';
import { isConnectionError } from '../db/outage.js';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

export const ok = <T>(result: T, locale: Locale = DEFAULT_LOCALE) => ({
  state: { code: Code.OK, msg: translate('errors.ok', locale) },
  result,
});

/**
 * Language of spec §1: the cookie first, then the signed-in user's stored setting (`stored`, which
 * the guard passes once it has resolved the session), then the browser's, default Chinese.
 */
export function requestLocale(req: FastifyRequest, stored?: Locale | null): Locale {
  // Undefined where the cookie plugin is not registered.
  const cookies: Partial<Record<string, string>> | undefined = req.cookies;
  const fromCookie = toLocale(cookies?.lang);
  if (fromCookie) return fromCookie;
  if (stored) return stored;
  const header = req.headers['accept-language'];
  return typeof header === 'string' ? (acceptedLocale(header) ?? DEFAULT_LOCALE) : DEFAULT_LOCALE;
}

/** The first of our languages in an Accept-Language header, by weight ("fr-FR, ja;q=0.8" → ja-JP). */
export function acceptedLocale(header: string): Locale | undefined {
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((e) => e.tag && e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const l = toLocale(tag);
    if (l) return l;
  }
  return undefined;
}

/** Registers the envelope: locale per request, one error handler for every failure, §8 answers for 404/405. */
export function registerEnvelope(app: FastifyInstance) {
  app.decorateRequest('locale', DEFAULT_LOCALE);
  app.addHook('onRequest', async (req) => {
    req.locale = requestLocale(req);
  });

  // Text PostgreSQL cannot store (a NUL byte) or the audit log's JSON cannot hold (a lone UTF-16
  // surrogate) is refused on every route before validation, with the field named.
  app.addHook('preValidation', async (req) => {
    const bad = unprintableField({ ...(req.query as object), ...(req.params as object), ...(isPlain(req.body) ? req.body : {}) });
    if (bad) throw new AppError(Code.PARAM_ERROR, 'errors.rule.unprintable', 400, { [bad]: 'errors.rule.unprintable' });
  });

  // Every answer says what it is (X-Content-Type-Options: nosniff makes browsers believe it): a
  // body sent without a type, by a plugin or a hand-written route, is named here.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.hasHeader('content-type') || payload === null || payload === undefined || payload === '') return payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const first = String(payload.slice(0, 1));
      reply.type(first === '{' || first === '[' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
    } else reply.type('application/octet-stream');
    return payload;
  });

  app.setErrorHandler((thrown: unknown, req, reply) => {
    const locale = req.locale ?? DEFAULT_LOCALE;
    if (thrown instanceof AppError) {
      if (thrown.httpStatus === 429) reply.header('retry-after', String(thrown.vars?.seconds ?? 1));
      return sendError(reply, thrown.httpStatus, thrown.code, translate(thrown.msgKey, locale, thrown.vars), thrown.details && translateDetails(thrown.details, locale));
    }
    const err = thrown as ThrownError;
    if (err.validation) {
      const details = translateDetails(fieldErrors(err.validation), locale);
      const first = Object.entries(details)[0];
      const msg = first ? `${translate('errors.paramError', locale)}: ${first[0]} ${first[1]}` : translate('errors.paramError', locale);
      return sendError(reply, 400, Code.PARAM_ERROR, msg, details);
    }
    if (err.statusCode === 415 || err.statusCode === 400 || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return sendError(reply, 400, Code.PARAM_ERROR, translate('errors.paramError', locale));
    }
    if (err.statusCode === 413) return sendError(reply, 413, Code.PARAM_ERROR, translate('errors.paramError', locale));
    // A plugin's refusal (the web app's files: a path outside its folder) is a missing page to
    // the caller, not a fault of the server; spec §8 gives 403 another meaning (login expired).
    if (err.statusCode === 403 || err.statusCode === 404) return sendError(reply, 404, Code.NOT_FOUND, translate('errors.notFound', locale));
    // A reference to a row that does not exist (a customerId, a gatewayId …) the handler did not check first.
    const missing = foreignKeyField(err);
    if (missing) return sendError(reply, 404, Code.NOT_FOUND, `${translate('errors.notFound', locale)}: ${missing}`, { [missing]: translate('errors.notFound', locale) });
    if (outOfRange(err)) return sendError(reply, 400, Code.PARAM_ERROR, translate('errors.paramError', locale));
    // The database is away (logged once as a fault, platform/health): nothing was done; try again soon.
    if (isConnectionError(err)) {
      reply.header('retry-after', String(RETRY_AFTER_S));
      return sendError(reply, 503, Code.FAILED, translate('errors.databaseUnavailable', locale));
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, Code.FAILED, translate('errors.server', locale));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = normalisedPath(req.url);
    const apiPath = API_PATH.test(path);
    // sendFile is there when the web app's files are served (@fastify/static).
    if (req.method === 'GET' && !apiPath && typeof reply.sendFile === 'function') return reply.sendFile('index.html');
    const locale = req.locale ?? DEFAULT_LOCALE;
    // Spec §8 405: the path exists, with another method (a PUT to a POST route).
    const other = path === req.url.split('?')[0] && METHODS.filter((m) => m !== req.method).some((method) => app.hasRoute({ method, url: path }));
    if (other) return sendError(reply, 405, Code.METHOD_NOT_ALLOWED, translate('errors.methodNotAllowed', locale));
    sendError(reply, 404, Code.NOT_FOUND, translate('errors.notFound', locale));
  });
}

/**
 * Fastify's own refusals before any route (Fastify's `frameworkErrors`): a path segment longer
 * than the router takes is no resource (404), a broken escape a parameter error (400), in the
 * envelope and the caller's language like every other answer, instead of Fastify's bare 414/400.
 */
export function frameworkError(err: { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  const locale = requestLocale(req);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 404, Code.NOT_FOUND, translate('errors.notFound', locale));
  return sendError(reply, 400, Code.PARAM_ERROR, translate('errors.paramError', locale));
}

/** Paths of the server, not of the web app: an unknown one is a 404, never the web app's page. */
const API_PATH = /^\/(service|api|ingest|docs|openapi|healthz|readyz|metrics)(\/|$|\.|;)/i;

/**
 * The path as a lenient proxy or client would read it: percent-decoded, backslashes and runs of
 * slashes as one slash, dot segments resolved, absolute form reduced to its path.
 */
export function normalisedPath(target: string): string {
  let p = target.split('?')[0];
  try {
    p = decodeURIComponent(p);
  } catch {
    // A broken escape stays as written.
  }
  p = p.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[\\/]+/g, '/');
  return new URL(p.startsWith('/') ? p : `/${p}`, 'http://x').pathname;
}

/** What a caller is told to wait while the database is away: about the longest probe interval (platform/db/outage.ts). */
export const RETRY_AFTER_S = 5;

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNPRINTABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The path of the first string holding a NUL byte or a lone surrogate, or undefined. Walked with
 * a stack of its own, not by recursion: the input is the caller's.
 */
function unprintableField(root: unknown): string | undefined {
  const stack: { v: unknown; at: string }[] = [{ v: root, at: '' }];
  while (stack.length) {
    const { v, at } = stack.pop()!;
    if (typeof v === 'string') {
      if (UNPRINTABLE.test(v)) return at || 'body';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], at: `${at}[${i}]` });
    } else if (isPlain(v)) {
      const entries = Object.entries(v);
      for (const [k] of entries) if (UNPRINTABLE.test(k)) return at ? `${at}.?` : '?';
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ v: entries[i][1], at: at ? `${at}.${entries[i][0]}` : entries[i][0] });
    }
  }
  return undefined;
}

/** What reaches the error handler besides an AppError: Fastify's errors (a failed validation, a status) and PostgreSQL's (a code, a detail). */
type ThrownError = { validation?: readonly ValidationEntry[]; statusCode?: number; code?: string; detail?: unknown };

/** PostgreSQL's foreign-key violation (23503) names its column: `Key (customer_id)=(9) is not present …` → customerId. */
function foreignKeyField(err: ThrownError): string | undefined {
  if (err?.code !== '23503') return undefined;
  const m = /Key \((\w+)\)=/.exec(String(err.detail ?? ''));
  if (!m || /is still referenced/.test(String(err.detail))) return undefined;
  return m[1].replace(/_(\w)/g, (_x, c: string) => c.toUpperCase());
}

function sendError(reply: FastifyReply, status: number, code: number, msg: string, details?: Record<string, string>) {
  // A failure is not the route's answer: it skips the route's response schema.
  reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
  
  return reply.status(status).send({ state: { code, msg }, result: details ? { errors: details } : null });
}

function translateDetails(d: Record<string, string>, locale: Locale) {
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, translate(v, locale)]));
}

/**
 * One failure of a validation error as fastify-type-provider-zod reports it: zod's issue as
 * keyword (its code), instancePath (its path), message, and params (its other fields: the `keys`
 * of unrecognized_keys; an earlier provider put the whole issue in params.issue).
 */
export type ValidationEntry = Partial<Pick<FastifySchemaValidationError, 'keyword' | 'instancePath' | 'message'>> & {
  params?: { keys?: readonly string[]; issue?: { code?: string; path?: readonly PropertyKey[]; keys?: readonly string[] } };
};

/**
 * The failing fields of a validation error as field → catalogue key: a field outside the
 * schema is named with errors.rule.unknownField, so the caller knows what to drop. Routes that
 * choose their own §8 answer (attachValidation) read the same map.
 */
export function fieldErrors(validation: readonly ValidationEntry[]): Record<string, string> {
  const details: Record<string, string> = {};
  for (const v of validation) {
    const issue = v.params?.issue;
    // fastify-type-provider-zod reports zod's unrecognized_keys as {keyword, instancePath, params.keys}.
    if (v.keyword === 'unrecognized_keys' || issue?.code === 'unrecognized_keys') {
      const at = String(v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || (issue?.path ?? []).join('.');
      for (const key of v.params?.keys ?? issue?.keys ?? []) details[at ? `${at}.${key}` : key] = 'errors.rule.unknownField';
      continue;
    }
    const field = String(v.instancePath ?? issue?.path?.join('.') ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    details[field] = normaliseZodMessage(String(v.message ?? ''));
  }
  return details;
}

/** Zod's own messages (type errors on missing fields) are not catalogue keys: map them to ours. */
function normaliseZodMessage(msg: string): string {
  if (msg.startsWith('errors.')) return msg;
  if (/required|received undefined/i.test(msg)) return 'errors.rule.required';
  if (/expected number/i.test(msg)) return 'errors.rule.number';
  return 'errors.paramError';
}
