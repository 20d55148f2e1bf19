import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type ApiErrorBody,
  codeOfStatus,
  type ErrorCode,
  errorCatalogue,
  type FieldError,
} from '@loyalty/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isConnectionError } from '../db/connection-errors';
import { AppError } from '../lib/app-error';

/** Paths whose unknown routes answer with the JSON envelope rather than the console. */
export const API_PREFIXES = ['/api/', '/auth/', '/pos/'];

/** Takes a path or a request URL: the query string is no part of the path (`/api?x=1` is `/api`). */
export function isApiPath(url: string): boolean {
  const path = pathOf(url);
  return API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p);
}

export function pathOf(url: string): string {
  return url.split('?')[0] ?? '/';
}

function send(reply: FastifyReply, request: FastifyRequest, body: Omit<ApiErrorBody, 'requestId'>) {
  return reply.code(body.status).send({ ...body, requestId: request.id });
}

function fromCatalogue(code: ErrorCode) {
  return { ...errorCatalogue[code], code };
}

/** Codes whose catalogue message says it better than Fastify's (which names its own internals). */
const CATALOGUE_MESSAGES = new Set<ErrorCode>(['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']);

/**
 * A 415 names what the route takes: its schema's `consumes` (the CSV imports: text/csv), else JSON, which
 * every other route takes. The catalogue's one message told a CSV upload sent as text/plain to send JSON.
 */
export function unsupportedMediaTypeMessage(request: FastifyRequest): string {
  const consumes = (request.routeOptions?.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (!consumes?.length) return errorCatalogue.UNSUPPORTED_MEDIA_TYPE.message;
  return `Content type must be ${consumes.join(' or ')}`;
}

function clientErrorMessage(error: FastifyError, code: ErrorCode, request: FastifyRequest): string {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return 'Malformed JSON body';
  if (code === 'UNSUPPORTED_MEDIA_TYPE') return unsupportedMediaTypeMessage(request);
  if (CATALOGUE_MESSAGES.has(code)) return errorCatalogue[code].message;
  return error.message || errorCatalogue[code].message;
}

/**
 * The one place an error becomes a response: `{status, message, code, requestId, details?}`.
 * Bad input is always a 4xx; anything unexpected is a 500 whose details stay in the log.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return send(reply, request, {
      status: error.status,
      message: error.message,
      code: error.code,
      details: error.details,
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details: FieldError[] = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const field = [error.validationContext === 'body' ? '' : error.validationContext, path]
        .filter(Boolean)
        .join('.');
      return { field: field || error.validationContext || 'request', message: issue.message ?? 'is invalid' };
    });
    const first = details[0];
    const message = first ? `${first.field}: ${first.message}` : errorCatalogue.VALIDATION_ERROR.message;
    return send(reply, request, { status: 400, message, code: 'VALIDATION_ERROR', details });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return send(reply, request, fromCatalogue('INTERNAL_ERROR'));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, bad content length, …) and its plugins' (a path the static
    // files refuse, a range past the end of a file): the code is the one of the status, never a 400's code
    // under another status. A status the catalogue has no code for is answered as the 400 it is a kind of.
    const known = codeOfStatus(status);
    if (!known) request.log.warn({ err: error }, `client error ${status} has no code; answered as a 400`);
    const code = known ?? 'BAD_REQUEST';
    return send(reply, request, {
      status: errorCatalogue[code].status,
      message: clientErrorMessage(error, code, request),
      code,
    });
  }
  if (isConnectionError(error)) {
    // The database dropped or refused the connection. A transaction is all or nothing, the pool reconnects
    // on demand, and the client may retry (a POS write with the same operationId: see db/transaction.ts).
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', '1');
    return send(reply, request, fromCatalogue('SERVICE_UNAVAILABLE'));
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, request, fromCatalogue('INTERNAL_ERROR'));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(errorHandler);
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.decorate('knownRoutes', routes);
  app.addHook('onRoute', (route) => {
    const entry = routes.get(route.url) ?? { pattern: routePattern(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    // Fastify answers HEAD on every GET route that does not opt out (`exposeHeadRoute: false`).
    if ([route.method].flat().includes('GET') && route.exposeHeadRoute !== false) entry.methods.add('HEAD');
    routes.set(route.url, entry);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers are per user and change with every write: no cache (shared or browser) may keep them.
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route's path pattern and methods: what tells a 405 from a 404. */
    knownRoutes: Map<string, { pattern: RegExp; methods: Set<string> }>;
  }
}

/** `/api/v1/cards/:id/block` → a RegExp matching concrete paths of that route. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) return '[^/]+';
      if (part === '*') return '.*';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The methods a path answers to, or none when no route has that path. */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  const methods = new Set<string>();
  for (const { pattern, methods: m } of app.knownRoutes.values()) {
    if (pattern.test(path)) for (const method of m) methods.add(method);
  }
  return [...methods].sort();
}

export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = pathOf(request.url);
  const allowed = allowedMethods(request.server, path);
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    // A known path with a method it does not support is a 405 naming the ones it does (RFC 9110).
    reply.header('allow', allowed.join(', '));
    return send(reply, request, {
      status: 405,
      message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      code: 'METHOD_NOT_ALLOWED',
    });
  }
  return send(reply, request, {
    status: 404,
    message: `No route ${request.method} ${path}`,
    code: 'NOT_FOUND',
  });
}

/**
 * Errors Fastify raises before routing (a URL that does not decode, a path parameter over the length
 * limit) answer with the envelope too.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.statusCode === 414) return send(reply, request, fromCatalogue('URI_TOO_LONG'));
  return send(reply, request, { status: 400, message: 'Malformed request URL', code: 'BAD_REQUEST' });
}

const SOCKET_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Errors Node's HTTP parser raises before there is a request (headers over the size limit, a request
 * that never completes, bytes that are not HTTP): the envelope written on the socket, then closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode = SOCKET_ERRORS[error.code ?? ''] ?? 'BAD_REQUEST';
  const { status, message } = errorCatalogue[code];
  const body = JSON.stringify({ status, message, code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
