import type { Callable, CallInput, Result, RouteDef } from '@coldwatch/contract';
import { request, requestUpload, type Params } from './client';

/*
 * The typed client: a call names its operation by the contract's RouteDef (packages/contract
 * src/api), so its path, method, parameters and answer are those the server registers. No
 * page writes a path or guesses a shape. Each function takes the definition or its ref
 * (`authRefs.login`, refs.gen.ts): the same call and types, without loading the schemas.
 */

type AnyInput = { query?: unknown; body?: unknown; params?: unknown };

/** `/x/{id}` path parameters filled in. */
function pathOf(def: Callable<RouteDef>, params?: unknown) {
  if (!params) return def.path;
  return def.path.replace(/\{(\w+)\}|:(\w+)/g, (_, a: string | undefined, b: string | undefined) => encodeURIComponent(String((params as Record<string, unknown>)[(a ?? b)!])));
}

function send<D extends RouteDef>(def: Callable<D>, input: CallInput<D> | undefined, quiet = false) {
  const i = (input ?? {}) as AnyInput;
  const body = def.body ? (i.body ?? {}) : def.method === 'POST' ? {} : undefined;
  return request<Result<D>>(def.method, pathOf(def, i.params), i.query as Params | undefined, body, quiet);
}

/** The input may be left out when the operation takes none (or only optional parts). */
type Args<D extends RouteDef> = {} extends CallInput<D> ? [input?: CallInput<D>] : [input: CallInput<D>];

/** Calls an operation and answers its result. */
export const call = <D extends RouteDef>(def: Callable<D>, ...[input]: Args<D>): Promise<Result<D>> => send(def, input).then((r) => r.result);

/** The same, ahead of need (app/preload.ts): a failure is left to the page's own call to report. */
export const callAhead = <D extends RouteDef>(def: Callable<D>, ...[input]: Args<D>): Promise<Result<D>> => send(def, input, true).then((r) => r.result);

/** Calls an operation and answers its result with the server's message (for a success toast). */
export const callSaying = <D extends RouteDef>(def: Callable<D>, ...[input]: Args<D>) => send(def, input);

/** Uploads one file (multipart, field `file`) to an upload operation (avatar, signature). */
export const upload = <D extends RouteDef>(def: Callable<D>, file: File, ...[input]: Args<D>) =>
  requestUpload<Result<D>>(pathOf(def, (input as AnyInput | undefined)?.params), (input as AnyInput | undefined)?.query as Params | undefined, file);

/** The cache key of an operation's answers (all of them without input). */
export const keyOf = (def: Callable<RouteDef>, input?: unknown) => (input === undefined ? [def.method, def.path] : [def.method, def.path, input]);

/** `ids=1,2,3` of the spec's batch calls. */
export const idList = (ids: readonly number[]) => ids.join(',');
