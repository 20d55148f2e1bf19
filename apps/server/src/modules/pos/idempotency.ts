import {
  accrualResponse,
  captureResponse,
  errorBody,
  holdResponse,
  releaseResponse,
  returnResponse,
} from '@loyalty/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { canonicalJson, requestHash } from '../../lib/request-hash';

/** The POS writes; each maps to the operation type its failures are recorded under. */
export type PosWriteKind = 'accrual' | 'hold' | 'capture' | 'release' | 'return';

export const operationTypeOf = {
  accrual: 'accrual',
  hold: 'hold',
  capture: 'redemption',
  release: 'hold',
  return: 'adjustment',
} as const;

/** The status of each write's success, stored with its answer so a replay gets the same. */
export const successStatus = {
  accrual: 201,
  hold: 201,
  capture: 200,
  release: 200,
  return: 201,
} as const satisfies Record<PosWriteKind, number>;

/** What a POS write answers: the exact body bytes, so a replay can be byte-identical. */
export interface PosOutcome {
  status: number;
  body: string;
  replayed: boolean;
}

export interface WriteContext {
  kind: PosWriteKind;
  posId: string;
  operationId: string;
  /** Hash of what was asked (route, target, body): "the same request" means the same hash. */
  hash: string;
  requestId: string;
}

export interface StoredRequest {
  pos_id: string;
  request_hash: string;
  status_code: number;
  response: unknown;
}

export function writeContext(
  kind: PosWriteKind,
  posId: string,
  target: string,
  body: { operationId: string },
  requestId: string,
): WriteContext {
  const hash = requestHash(`${kind}:${target}`, canonicalJson(body));
  return { kind, posId, operationId: body.operationId, hash, requestId };
}

const successSchemas: Record<PosWriteKind, z.ZodType> = {
  accrual: accrualResponse,
  hold: holdResponse,
  capture: captureResponse,
  release: releaseResponse,
  return: returnResponse,
};

/**
 * How a stored response becomes bytes: parse with the response schema (which fixes key order) and stringify.
 * The first answer and every replay go through it from the same stored JSON, so a replay is byte-identical;
 * only a replay of an answer stored under an older contract takes `renderReplay`'s way.
 */
export function render(kind: PosWriteKind, status: number, response: unknown): string {
  const schema = status >= 400 ? errorBody : successSchemas[kind];
  return JSON.stringify(schema.parse(response));
}

/**
 * A replay: as `render`, unless the answer was stored under an older contract that today's schema refuses
 * (accruals answered before migration 018 have no `rule` per item). The till gets that original answer as
 * stored: POS-API promises "the original response again", and a 500 on every retry of a write made before an
 * upgrade would leave the till unable to learn that its write happened. Its keys then come in the stored
 * JSONB's order, not the schema's: the same answer, not the same bytes.
 */
function renderReplay(kind: PosWriteKind, status: number, response: unknown): string {
  const schema = status >= 400 ? errorBody : successSchemas[kind];
  const parsed = schema.safeParse(response);
  return JSON.stringify(parsed.success ? parsed.data : response);
}

export function firstAnswer(kind: PosWriteKind, stored: { status_code: number; response: unknown }) {
  return {
    status: stored.status_code,
    body: render(kind, stored.status_code, stored.response),
    replayed: false,
  };
}

/** An operationId already taken: replay it for the same POS and request, otherwise a 409. */
export function resolveExisting(existing: StoredRequest | undefined, ctx: WriteContext): PosOutcome {
  if (!existing) throw new AppError('OPERATION_ID_ALREADY_USED');
  if (existing.pos_id !== ctx.posId) throw new AppError('OPERATION_ID_USED_BY_OTHER_POS');
  if (existing.request_hash !== ctx.hash) throw new AppError('OPERATION_ID_ALREADY_USED');
  return {
    status: existing.status_code,
    body: renderReplay(ctx.kind, existing.status_code, existing.response),
    replayed: true,
  };
}

/** The error envelope of a recorded failure (same fields and order as the error handler's). */
export function failureBody(error: AppError, requestId: string) {
  return { status: error.status, message: error.message, code: error.code, requestId };
}
