import { type FieldError, unstorableText } from '@loyalty/contracts';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

// Text PostgreSQL cannot store (contracts' `unstorableText`): found anywhere in a request, it is a 400 naming
// the field, before any route sees it.

/** Paths (`items.0.sku`) of every string, or object key, in `value` that cannot be stored. */
export function findUnstorableText(value: unknown, path = '', found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (unstorableText(value)) found.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries())
      findUnstorableText(item, path ? `${path}.${i}` : String(i), found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (unstorableText(key)) found.push(at);
      else findUnstorableText(item, at, found);
    }
  }
  return found;
}

// The field names of the zod errors: body fields bare, `querystring.search`, `params.id`.
const PART_PREFIX: Record<string, string> = { body: '' };

/**
 * The validator every route's schemas compile with: the storable-text check over the whole part
 * (body, query, params), then the route's zod schema. One mechanism for every route.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = zodValidatorCompiler(route as Parameters<typeof zodValidatorCompiler>[0]);
  const prefix = PART_PREFIX[route.httpPart ?? ''] ?? route.httpPart ?? '';
  return (data: unknown) => {
    // Headers cannot carry NUL (Node refuses them) and may hold anything else a client sends.
    if (route.httpPart !== 'headers') {
      const bad = findUnstorableText(data);
      if (bad.length > 0) {
        const details: FieldError[] = bad.map((path) => ({
          field: [prefix, path].filter(Boolean).join('.') || prefix || 'body',
          message: 'must not contain NUL characters or invalid Unicode',
        }));
        const message = `${details[0]!.field}: ${details[0]!.message}`;
        return { error: new AppError('VALIDATION_ERROR', message, details) };
      }
    }
    return validate(data);
  };
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How deep a JSON body may nest. The deepest contract (a ruleset's rules with their conditions) is about
 * five levels; a body nested thousands deep is an attack, and the code that walks bodies recursively
 * (the storable-text check, zod, the POS request hash) would overflow the stack on it: a 500 per request.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `max`; walked with a stack of its own, never recursively. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * JSON bodies are decoded strictly: invalid UTF-8 is a 400 `BAD_REQUEST`, where Fastify's default
 * parser would replace the bad bytes with U+FFFD and store text the client never sent.
 */
export function registerStrictJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new AppError('BAD_REQUEST', 'The JSON body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      if (!error && nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
        done(
          new AppError('BAD_REQUEST', `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`),
          undefined,
        );
        return;
      }
      done(error, parsed);
    });
  });
}
