import type { FastifyInstance } from 'fastify';
import { Code } from '@coldwatch/contract';
import { AppError } from './errors.js';

/**
 * The deepest nesting a JSON body may have. The deepest form the console sends is a few levels
 * (a carrier's zones inside its body); 64 leaves room for any client and keeps every walk over
 * a parsed body (the NUL check, the audit log's redaction, zod) far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` nests arrays and objects deeper than `max`: one pass, no recursion, brackets
 * inside strings ignored. Run before JSON.parse, so a body ten thousand levels deep costs a scan
 * of its bytes and no more.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), after the depth check. An
 * empty body is no body: a DELETE or PUT whose only input is its query may still say
 * `content-type: application/json` (many HTTP clients do).
 */
export function registerJsonParser(app: FastifyInstance) {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (text === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return done(new AppError(Code.PARAM_ERROR, 'errors.jsonTooDeep', 400, undefined, { max: MAX_JSON_DEPTH }), undefined);
    json(req, text, done);
  });
}
