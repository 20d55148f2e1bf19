import { type ApiErrorBody, type ErrorCode, errorCatalogue, type FieldError } from '@loyalty/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isConnectionError } from '../db/connection-errors';
import { AppError } from '../lib/app-error';

/** Paths whose unknown routes answer with the JSON envelope rather than the console. */
export const API_PREFIXES = ['/api/', '/auth/', '/pos/'];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p) || `${url}/` === p);
}

function send(reply: FastifyReply, request: FastifyRequest, body: Omit<ApiErrorBody, 'requestId'>) {
  return reply.code(body.status).send({ ...body, requestId: request.id });
}

function fromCatalogue(code: ErrorCode) {
  return { ...errorCatalogue[code], code };
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
  if (status === 429) {
    return send(reply, request, {
      status,
      message: error.message || errorCatalogue.TOO_MANY_REQUESTS.message,
      code: 'TOO_MANY_REQUESTS',
    });
  }
  if (status === 413) return send(reply, request, fromCatalogue('PAYLOAD_TOO_LARGE'));
  if (status === 415) return send(reply, request, fromCatalogue('UNSUPPORTED_MEDIA_TYPE'));
  if (status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, empty JSON body, bad content length, …
    const message =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'Malformed JSON body'
        : error.message || errorCatalogue.BAD_REQUEST.message;
    return send(reply, request, { status, message, code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST' });
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
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers are per user and change with every write: no cache (shared or browser) may keep them.
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
  });
}

export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return send(reply, request, {
    status: 404,
    message: `No route ${request.method} ${request.url.split('?')[0]}`,
    code: 'NOT_FOUND',
  });
}
