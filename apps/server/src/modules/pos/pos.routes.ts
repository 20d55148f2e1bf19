import {
  accrualPreviewRequest,
  accrualPreviewResponse,
  accrualRequest,
  accrualResponse,
  captureRequest,
  captureResponse,
  errorBody,
  holdParams,
  holdRequest,
  holdResponse,
  MAX_BALANCE,
  MAX_RECEIPT_AMOUNT,
  posCardBalance,
  posCardParams,
  releaseRequest,
  releaseResponse,
  returnRequest,
  returnResponse,
} from '@loyalty/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Secrets } from '../../lib/secrets';
import { createKeyCrypto, type KeyCrypto } from '../pos-keys/key-crypto';
import { accrue, previewAccrual } from './accrual.service';
import { cardBalance } from './balance.service';
import { captureHoldRequest, createHold, releaseHoldRequest } from './holds.service';
import type { PosOutcome } from './idempotency';
import { posAuthentication, touchLastUsed } from './pos-auth';
import { posErrorHandler } from './pos-failures-hook';
import { returnPoints } from './returns.service';

const TAG = 'POS API';
const security = [{ apiKey: [] }];
const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody };
const BALANCE_LIMIT_RULE =
  `A receipt whose Σ quantity × price exceeds ${MAX_RECEIPT_AMOUNT} is a 400; points that would take the ` +
  `balance past ${MAX_BALANCE} are refused with 409 BALANCE_LIMIT_EXCEEDED (recorded as a failed operation).`;
const HOLD_SETTLE_RULES =
  'Only the POS that made the hold (else 404 NO_ACTIVE_HOLD_FOR_POS; unknown: 404 HOLD_NOT_FOUND). A hold ' +
  'whose expiresAt has passed answers 409 HOLD_EXPIRED, whether or not the sweeper has voided it yet; a hold ' +
  'captured or released before then answers 409 ALREADY_CAPTURED_OR_CLOSED.';
// What every write answers besides its own rules, so that a till's integrator finds each code the route can
// send in the API document (POS-API.md names them across its sections).
const WRITE_RULES =
  'Idempotent by operationId: a repeat by this POS gets the first answer again (status and body, a 404 or 409 ' +
  'refusal too) with the header Idempotent-Replayed: true; the same operationId with another body answers 409 ' +
  'OPERATION_ID_ALREADY_USED, one another POS used 409 OPERATION_ID_USED_BY_OTHER_POS. An invalid request ' +
  '(400) does not take the operationId: the corrected request may use it. Every refusal is recorded as a ' +
  'failed operation that staff see on the Operations screen (found by the operationId sent).';
const CARD_RULES = 'Unknown card: 404 CARD_NOT_FOUND; blocked or pending: 409 CARD_BLOCKED.';

/** The first answer or its replay, as the exact bytes stored for it. */
function send(reply: FastifyReply, outcome: PosOutcome) {
  reply.code(outcome.status).type('application/json; charset=utf-8');
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.send(outcome.body);
}

/** POS API: authenticated by X-API-Key, not by session. */
export const posRoutes: FastifyPluginAsyncZod<{ config: Config; secrets: Secrets }> = async (app, opts) => {
  const keyCrypto = createKeyCrypto(opts.secrets.posKeySecret);
  const crypto = (): KeyCrypto => keyCrypto;
  app.decorateRequest('pos', undefined);
  app.addHook('onRequest', posAuthentication(app, crypto));
  app.addHook('onSend', touchLastUsed(app));
  app.setErrorHandler(posErrorHandler(app.db));

  app.get(
    '/pos/api/v1/cards/:cardNumber',
    {
      schema: {
        tags: [TAG],
        summary: 'Card balance: balance, held and available points',
        security,
        params: posCardParams,
        response: { 200: posCardBalance, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => cardBalance(app.db, request.params.cardNumber),
  );

  app.post(
    '/pos/api/v1/accruals',
    {
      config: { posWrite: 'accrual' },
      schema: {
        tags: [TAG],
        summary: 'Accrue points for a receipt (ruleset in force, excluded SKUs earn nothing)',
        description: `${CARD_RULES} No ruleset in force: 409 NO_ACTIVE_RULESET. ${BALANCE_LIMIT_RULE} ${WRITE_RULES}`,
        security,
        body: accrualRequest,
        response: { 201: accrualResponse, ...errors },
      },
    },
    async (request, reply) => send(reply, await accrue(app.db, request.pos!, request.body, request.id)),
  );

  app.post(
    '/pos/api/v1/accruals/preview',
    {
      schema: {
        tags: [TAG],
        summary: 'What an accrual would earn; nothing is written',
        description: `Refuses what the accrual would refuse, with the same codes: ${CARD_RULES} No ruleset in force: 409 NO_ACTIVE_RULESET. ${BALANCE_LIMIT_RULE}`,
        security,
        body: accrualPreviewRequest,
        response: { 200: accrualPreviewResponse, ...errors },
      },
    },
    async (request) => previewAccrual(app.db, request.pos!, request.body),
  );

  app.post(
    '/pos/api/v1/holds',
    {
      config: { posWrite: 'hold' },
      schema: {
        tags: [TAG],
        summary: 'Hold points for a redemption (expires after holds.ttl_minutes, default 15)',
        description:
          `${CARD_RULES} Needs points ≤ available (balance − held − pending), else 409 INSUFFICIENT_FUNDS. A hold ` +
          'whose expiresAt has passed never counts as held, whether or not the sweeper has voided it yet. ' +
          WRITE_RULES,
        security,
        body: holdRequest,
        response: { 201: holdResponse, ...errors },
      },
    },
    async (request, reply) => send(reply, await createHold(app.db, request.pos!, request.body, request.id)),
  );

  app.post(
    '/pos/api/v1/holds/:holdId/capture',
    {
      config: { posWrite: 'capture' },
      schema: {
        tags: [TAG],
        summary: 'Capture a hold, fully or partly (the rest is released)',
        description:
          `${HOLD_SETTLE_RULES} A card blocked since the hold: 409 CARD_BLOCKED; points above the held ones: 409 ` +
          `INSUFFICIENT_FUNDS. ${WRITE_RULES}`,
        security,
        params: holdParams,
        body: captureRequest,
        response: { 200: captureResponse, ...errors },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await captureHoldRequest(app.db, request.pos!, request.params.holdId, request.body, request.id),
      ),
  );

  app.post(
    '/pos/api/v1/holds/:holdId/release',
    {
      config: { posWrite: 'release' },
      schema: {
        tags: [TAG],
        summary: 'Release a hold: its points are available again',
        description: `${HOLD_SETTLE_RULES} ${WRITE_RULES}`,
        security,
        params: holdParams,
        body: releaseRequest,
        response: { 200: releaseResponse, ...errors },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await releaseHoldRequest(app.db, request.pos!, request.params.holdId, request.body, request.id),
      ),
  );

  app.post(
    '/pos/api/v1/returns',
    {
      config: { posWrite: 'return' },
      schema: {
        tags: [TAG],
        summary: 'Return lines of an earlier accrual of this POS: their points are taken back',
        description:
          'No accrual of this POS with originalOperationId: 404 OPERATION_NOT_FOUND; a SKU not on the receipt, or ' +
          'nothing left to return of its lines: 409 RETURN_NOT_ALLOWED. Also on a card blocked since the accrual (a ' +
          'lost card reissued, say): a blocked card neither earns nor spends, but what it earned is still taken ' +
          'back for goods brought back (POS-API.md says 409 CARD_BLOCKED for writes; a return is the exception). ' +
          `The balance never goes below zero: what cannot be taken is recorded as the return's shortfall. ${WRITE_RULES}`,
        security,
        body: returnRequest,
        response: { 201: returnResponse, ...errors },
      },
    },
    async (request, reply) => send(reply, await returnPoints(app.db, request.pos!, request.body, request.id)),
  );
};
