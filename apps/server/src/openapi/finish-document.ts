import { STATUS_CODES } from 'node:http';

/**
 * The OpenAPI document made fit for the clients generated from it, once every route is in it
 * (plugins/swagger.ts): operationIds, a `servers` entry, responses described by their status text, the
 * response headers a client acts on, and OpenAPI 3.0's `nullable` only beside a type.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
}
interface Header {
  description: string;
  schema: Schema;
  required?: boolean;
}
interface Response {
  description?: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Record<string, unknown>[];
  responses?: Record<string, Response>;
}
type OpenApiDocument = { servers?: unknown[]; paths?: Record<string, Record<string, Operation>> };

/** What every operation of the document is visited as. */
function eachOperation(
  document: OpenApiDocument,
  visit: (op: Operation, path: string, method: string) => void,
) {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) visit(operation, path, method);
  }
}

const appendSentence = (op: Operation, sentence: string) => {
  op.description = op.description ? `${op.description} ${sentence}` : sentence;
};

/**
 * `getAccounts`, `postCardsIdBlock`, `postPosAccruals`, `postAuthLogin`: the method and the path's words, the
 * `api/v1` left out (the Admin API's paths have no prefix word; the POS and sign-in ones keep theirs).
 * Stable while the path is, so a generated client's method names are too.
 */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((part) => part && part !== 'api' && !/^v\d+$/.test(part))
    .flatMap((part) => part.replace(/[{}]/g, '').split(/[-_.]/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** Generators name methods by operationId, read the base URL from `servers`, and show each response's text. */
function forGenerators(document: OpenApiDocument) {
  document.servers = [{ url: '/' }];
  const seen = new Map<string, string>();
  eachOperation(document, (op, path, method) => {
    const id = op.operationId ?? operationIdOf(method, path);
    const other = seen.get(id);
    if (other) throw new Error(`operationId ${id} of ${method} ${path} is also ${other}'s`);
    seen.set(id, `${method} ${path}`);
    op.operationId = id;
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      // A 204 has no body: its response is declared without content (zod's `null` would say JSON `null`).
      if (status === '204') delete response.content;
      if (!response.description || response.description === 'Default Response' || status === '204') {
        response.description = STATUS_CODES[Number(status)] ?? 'Response';
      }
    }
  });
}

/**
 * OpenAPI 3.0 has `nullable` only beside a `type`: an anyOf that may be null says it in each branch, and a
 * schema without a type (any JSON value) already allows null.
 */
function nullableBesideType(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) nullableBesideType(item);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Schema;
  for (const value of Object.values(node)) nullableBesideType(value);
  if (node.nullable !== true || node.type !== undefined) return;
  const branches = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
  if (branches) for (const branch of branches) if (branch.type !== undefined) branch.nullable = true;
  if (!branches || branches.every((b) => b.type !== undefined)) delete node.nullable;
}

const REPLAYED = {
  description:
    '`true` when this is the answer of an earlier request with the same key (Idempotency-Key, or a POS ' +
    "write's operationId), sent again: nothing was done this time.",
  schema: { type: 'string', enum: ['true'] },
};
const RETRY_AFTER = {
  description: 'seconds to wait before trying again',
  schema: { type: 'integer', minimum: 1 },
};
const CONTENT_DISPOSITION = {
  description: 'attachment; filename="<list>-<YYYY-MM-DD>.csv"',
  schema: { type: 'string' },
};
// Not `required`: a user deleted while their write ran is answered 401 from the write, without one.
const CHALLENGE = {
  description:
    'Bearer (RFC 6750), when the session token is missing; `Bearer error="invalid_token"` when it was refused',
  schema: { type: 'string' },
};

const hasHeaderParameter = (op: Operation, name: string) =>
  (op.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === name);

/**
 * Whether repeating the request answers the first answer again with `Idempotent-Replayed: true`: the writes
 * that take an Idempotency-Key (the admin creates, manual accrual, bulk credits) and the POS writes, which
 * are idempotent by their required operationId (a preview's is optional: it writes nothing).
 */
function isIdempotent(op: Operation, path: string, method: string): boolean {
  if (hasHeaderParameter(op, 'idempotency-key')) return true;
  const body = op.requestBody?.content?.['application/json']?.schema;
  const required = (body?.required ?? []) as string[];
  return method === 'post' && path.startsWith('/pos/') && required.includes('operationId');
}

const withHeader = (response: Response, name: string, header: Header) => {
  response.headers = { ...response.headers, [name]: header };
};

/** The response headers a client acts on: replays, when to retry, a download's file name, the 401 challenge. */
function responseHeaders(document: OpenApiDocument) {
  eachOperation(document, (op, path, method) => {
    const responses = op.responses ?? {};
    const idempotent = isIdempotent(op, path, method);
    for (const [status, response] of Object.entries(responses)) {
      if (idempotent && status.startsWith('2')) withHeader(response, 'Idempotent-Replayed', REPLAYED);
      if (status === '503' || status === '429') withHeader(response, 'Retry-After', RETRY_AFTER);
      if (status === '200' && response.content?.['text/csv']) {
        withHeader(response, 'Content-Disposition', CONTENT_DISPOSITION);
      }
      if (status === '401' && op.security?.some((s) => 'bearerAuth' in s)) {
        withHeader(response, 'WWW-Authenticate', CHALLENGE);
      }
    }
    if (idempotent && responses['200'] && !responses['201']) {
      // A bulk credit's re-post answers 200 like the first post: the header is the only difference.
      appendSentence(
        op,
        'A repeat under the same key (a bulk credit re-posted: its Idempotency-Key, else the same file) answers ' +
          '200 with the first answer (its report) and the header Idempotent-Replayed: true; only that header ' +
          'says that nothing was booked this time.',
      );
    }
    if (responses['200']?.content?.['text/csv'] && responses['200'].content['application/json']) {
      appendSentence(
        op,
        'Answers JSON; for CSV (text/csv, as a download) add the query parameter format=csv (the Accept ' +
          'header does not choose the format).',
      );
    }
  });
}

/** The whole document, once every route is in it. */
export function finishDocument<T>(document: T): T {
  const doc = document as OpenApiDocument;
  forGenerators(doc);
  responseHeaders(doc);
  nullableBesideType(doc.paths);
  return document;
}
