import { codeOfStatus, type ErrorCode, isErrorCode, unstorableText } from '@loyalty/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { errorHandler } from '../../plugins/errors';
import { insertUnboundFailure } from '../ledger/failed-operations.repository';
import { operationTypeOf, type PosWriteKind } from './idempotency';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks a POS write route, so the failures it throws are recorded as `failed` operations. */
    posWrite?: PosWriteKind;
  }
}

function codeOf(error: FastifyError): ErrorCode | null {
  if (error instanceof AppError) return error.code === 'UNAUTHORIZED' ? null : error.code;
  if (hasZodFastifySchemaValidationErrors(error)) return 'VALIDATION_ERROR';
  const status = error.statusCode ?? 500;
  // The code the common handler answers with (the catalogue's for the status), so the record says the same.
  if (status >= 400 && status < 500 && status !== 401) return codeOfStatus(status) ?? 'BAD_REQUEST';
  return null;
}

// Text PostgreSQL cannot store (the reason the request was refused, perhaps) is left out of the record.
const field = (body: unknown, name: string): string | null => {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' && !unstorableText(value) ? value.slice(0, 128) : null;
};

/**
 * Errors a POS write throws (invalid bodies, operationId conflicts) are recorded too (POS-API.md
 * "Failed writes"), without taking the operationId; then the common error handler answers. Refusals
 * decided by the rules (funds, holds, cards) are recorded by the services with the operationId.
 */
export function posErrorHandler(db: Db) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const kind = request.routeOptions.config.posWrite;
    const code = codeOf(error);
    if (kind && request.pos && code && isErrorCode(code)) {
      try {
        const operationId = field(request.body, 'operationId');
        await insertUnboundFailure(db, {
          type: operationTypeOf[kind],
          posId: request.pos.id,
          cardNumber: field(request.body, 'cardNumber')?.slice(0, 64) ?? null,
          meta: { error: code, ...(operationId ? { operationId } : {}) },
        });
      } catch (recordError) {
        request.log.error({ err: recordError }, 'could not record the failed POS write');
      }
    }
    return errorHandler(error, request, reply);
  };
}
