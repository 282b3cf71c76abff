import { z } from 'zod';
import { paging } from '../rules.js';

/*
 * The API as data: each operation of the console is one RouteDef, shared by the server
 * (which registers it with its schemas, so that input is validated, the answer is
 * serialised through `result` and the OpenAPI document shows both) and the web client
 * (which calls it by the same object, so paths, parameters and answers are typed).
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: Method;
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  tag: string;
  query?: Q;
  body?: B;
  params?: P;
  /** The `result` of the envelope, or the whole answer when `raw`. */
  result: R;
  /** The answer is not the spec's envelope (device ingest, files, the live stream). */
  raw?: 'json' | 'file' | 'stream';
}

export const route = <D extends RouteDef>(d: D): D => d;

/**
 * An operation as a client needs it at run time: method, path, whether it sends a body. The
 * definition rides along as a type only, so a call through a ref is typed exactly as through
 * the definition, but the code that holds it does not load zod and the schemas. The refs of
 * every `…Api` are generated into `refs/<api>.gen.ts`, one file each so that a web chunk holds
 * only the refs it uses (`npm run contract:refs`); the login route
 * calls through them, which keeps it light.
 */
export interface RouteRef<D extends RouteDef = RouteDef> {
  readonly method: Method;
  readonly path: string;
  readonly body?: true;
  /** Type only: never present at run time. */
  readonly __def?: D;
}

/** The refs of an `…Api` object. */
export type RefsOf<T extends Record<string, RouteDef>> = { readonly [K in keyof T]: RouteRef<T[K]> };

/** What the client's calls take: the definition itself or its ref. */
export type Callable<D extends RouteDef> = D | RouteRef<D>;

/** What a call sends, by its definition: the web client's argument. */
export type CallInput<D extends RouteDef> = (D['query'] extends z.ZodType ? { query: z.input<D['query']> } : { query?: undefined }) &
  (D['body'] extends z.ZodType ? { body: z.input<D['body']> } : { body?: undefined }) &
  (D['params'] extends z.ZodType ? { params: z.input<D['params']> } : { params?: undefined });

/** What a call answers (the envelope's `result`). */
export type Result<D extends RouteDef> = z.output<D['result']>;

export const stateSchema = z.object({ code: z.number().int(), msg: z.string() });
export const envelope = <R extends z.ZodType>(result: R) => z.object({ state: stateSchema, result });

/** The answer of every `/page` call. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    total: z.number().int(),
    rows: z.array(row),
    iDisplayStart: z.number().int(),
    iDisplayLength: z.number().int(),
    /** The lists that grow without bound count at most 1,000 rows past the page: true when more follow. */
    more: z.boolean().optional(),
  });

/**
 * The query of a `/page` call: spec paging, the module's filters, and an optional sort by one
 * of `sortable` (a whitelist: the key names a column the server maps, never SQL).
 */
export function pageQuery<T extends z.ZodRawShape, S extends string = never>(filters: T, sortable: readonly S[] = []) {
  const sort = sortable.length ? z.enum(sortable as unknown as [S, ...S[]], { error: 'errors.rule.sort' }).optional() : z.undefined().optional();
  return z.object({ ...paging, ...filters, sort, order: z.enum(['asc', 'desc'], { error: 'errors.rule.sort' }).default('asc') });
}

export const id = z.coerce.number().int().positive().max(2_147_483_647);
export const idQuery = z.object({ id });
export const idParams = z.object({ id });

/** `ids=1,2,3` of the spec's `/del?ids=` calls; ids beyond PostgreSQL's integer are refused, not truncated. */
export const idsQuery = z.object({
  ids: z
    .string({ error: 'errors.selectAtLeastOne' })
    .max(2000)
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number))
    .refine((a) => a.length > 0, { error: 'errors.selectAtLeastOne' })
    .refine((a) => a.every((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647), { error: 'errors.rule.ids' }),
});

/** UTC milliseconds. */
export const ms = z.number().int();
/** `{id}` of a record just added or changed. */
export const idResult = z.object({ id: z.number().int() });
export const deletedResult = z.object({ deleted: z.number().int() });
export const nothing = z.null();

/** `startTime`/`endTime` filters in UTC ms; a start after the end is refused on startTime. */
export const timeRange = { startTime: z.coerce.number().int().min(0).optional(), endTime: z.coerce.number().int().min(0).optional() };
export const startNotAfterEnd: [(q: { startTime?: number; endTime?: number }) => boolean, { error: string; path: string[] }] = [
  (q) => q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime,
  { error: 'errors.rule.startAfterEnd', path: ['startTime'] },
];
