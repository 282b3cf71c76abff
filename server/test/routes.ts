import type { RouteOptions } from 'fastify';
import { modules } from '../src/modules/index.js';
import type { Records } from '../src/modules/shared/records.fixture.js';

/*
 * Route discovery shared by the tests that walk EVERY registered route (test/isolation.test.ts,
 * src/modules/syslog/syslog.audit.test.ts): routes are recorded with an onRoute hook wrapped
 * around each module before the app is built, so a route added later is walked without editing
 * the tests; a call's parameters are derived from the route's path and its zod schemas.
 */

export interface Walked {
  method: string;
  url: string;
  config: { public?: boolean; funcs?: string[]; stream?: boolean; read?: boolean };
  schema?: { querystring?: unknown; body?: unknown; params?: unknown };
}

/** Wraps every module with an onRoute recorder; call before the app is built. HEAD routes are left out when `skipHead`. */
export function recordRoutes(opts: { skipHead?: boolean } = {}): Walked[] {
  const routes: Walked[] = [];
  for (let i = 0; i < modules.length; i++) {
    const mod = modules[i];
    modules[i] = (app, deps) => {
      app.addHook('onRoute', (r: RouteOptions) => {
        for (const method of [r.method].flat()) {
          if (opts.skipHead && method === 'HEAD') continue;
          routes.push({ method, url: r.url, config: (r.config ?? {}) as Walked['config'], schema: r.schema as Walked['schema'] });
        }
      });
      return mod(app, deps);
    };
  }
  return routes;
}

// ---- zod 4 internals, read only to find an object's keys and a valid sample for a field ----

export const def = (s: any) => s?._zod?.def ?? s?.def;
export function unwrap(s: any): any {
  let d = def(s);
  while (d && ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly'].includes(d.type)) d = def(d.innerType);
  if (d?.type === 'pipe') return unwrap(d.in);
  return d;
}
export function shapeOf(s: any): Record<string, any> | undefined {
  const d = unwrap(s);
  if (d?.type === 'object') return typeof d.shape === 'function' ? d.shape() : d.shape;
  if (d?.type === 'intersection') return { ...shapeOf(d.left), ...shapeOf(d.right) };
  return undefined;
}

/** A sample for an unwrapped zod def of a plain type (enum, literal, union and anything unknown are left to the caller). */
export function plainSample(d: any): unknown {
  switch (d?.type) {
    case 'number': {
      // The smallest value the schema allows (a collection interval starts at 10 s), or 1.
      const min = (d.checks ?? []).map((c: any) => def(c)).find((c: any) => c?.check === 'greater_than');
      return min ? Math.max(Number(min.value) + (min.inclusive ? 0 : 1), 1) : 1;
    }
    case 'boolean': return true;
    case 'array': return [];
    case 'string': return 'x';
    default: return undefined;
  }
}

// ---- deriving a call from a route ---------------------------------------------------------

/** The records' identifiers by parameter name; `id`-like names get `id`. `withCodes` adds the gateway serial and scene code. */
export function knownParams(a: Records, id: number, withCodes = false): Record<string, unknown> {
  const now = Date.now();
  return {
    id, ids: String(id), carrierId: a.carrierId, sceneId: a.sceneId, parentId: a.sceneId, gatewayId: a.gatewayId, sensorId: a.sensorId,
    contactId: a.contactId, unitId: 1, exceptionId: id, customerId: a.customerId, scopeId: a.customerId, deviceNo: a.devNo, devNo: a.devNo,
    dev: a.devNo, ...(withCodes ? { sn: a.gatewaySn, code: a.sceneCode, sceneCode: a.sceneCode } : {}),
    start: now - 86_400_000, end: now, contactIds: [a.contactId],
    // Detail data's subjects (a list in one query string): the carrier kind, the sensor kind being found the same way.
    carrierIds: String(a.carrierId),
  };
}

/** Whether a route takes an id (in its path or any of its schemas): then it is called once per candidate id. */
export const takesId = (r: Walked) =>
  /:(\w*id\w*)|\bids?\b/i.test(r.url) || ['querystring', 'body', 'params'].some((p) => /\bids?\b/.test(Object.keys(shapeOf((r.schema as any)?.[p]) ?? {}).join(' ')));

/** The route's path with its parameters filled from `known` (or `id`). */
export const pathFor = (r: Walked, known: Record<string, unknown>, id: number) =>
  r.url.replace(/:(\w+)/g, (_m, name) => encodeURIComponent(String(name === 'type' ? 'zigbee_th' : (known[name] ?? id)))).replace(/\*$/, 'x');

/** The query string of a filled querystring object. */
export const queryOf = (filled: Record<string, unknown>) => new URLSearchParams(Object.entries(filled).map(([q, v]) => [q, String(v)])).toString();

/** The fields of obj that schema's body names: a detail answer turned into an update body, as a form would send it. */
export function bodyFrom<T extends Record<string, unknown>>(schema: any, obj: T): Partial<T> {
  const keys = Object.keys(shapeOf(schema) ?? {});
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.includes(k))) as Partial<T>;
}
