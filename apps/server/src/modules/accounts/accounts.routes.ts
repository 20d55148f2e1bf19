import {
  account,
  accountListQuery,
  createAccountRequest,
  errorBody,
  idParam,
  MAX_BALANCE,
  manualAccrualHeaders,
  manualAccrualRequest,
  manualAccrualResponse,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listResponses, sendCsv } from '../../lib/csv';
import type { Secrets } from '../../lib/secrets';
import { sendCreated } from '../../lib/send-created';
import { ANY_ROLE, MANAGERS } from '../../plugins/auth';
import { createIdempotencyHeaders } from '../ledger/admin-idempotency';
import { erasedClientSecret } from '../member-data/erased-client-secret';
import { createAccount, exportAccounts, getAccount, listAccountsPage } from './accounts.service';
import { manualAccrual } from './manual-accrual.service';

/** Accounts and manual accrual. */
export const accountsRoutes: FastifyPluginAsyncZod<{ secrets: Secrets }> = async (app, { secrets }) => {
  const anyRole = app.requireRole(...ANY_ROLE);
  const managers = app.requireRole(...MANAGERS);
  // Keys a manual accrual's request hash (it is of the account and the reason an erasure clears).
  const keySecret = erasedClientSecret(secrets);

  app.get(
    '/api/v1/accounts',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Accounts'],
        summary: 'List accounts with balance, held balance and active card; search matches the client ID',
        querystring: accountListQuery,
        response: listResponses(account),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'accounts', account, exportAccounts(app.db, request.query))
        : listAccountsPage(app.db, request.query),
  );

  app.get(
    '/api/v1/accounts/:id',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Accounts'],
        summary: 'One account',
        params: idParam,
        response: { 200: account },
      },
    },
    async (request) => getAccount(app.db, request.params.id),
  );

  app.post(
    '/api/v1/accounts',
    {
      preHandler: managers,
      schema: {
        tags: ['Accounts'],
        summary: 'Create an account; the client ID is unique in any case',
        headers: createIdempotencyHeaders,
        body: createAccountRequest,
        response: { 201: account },
      },
    },
    async (request, reply) => {
      const created = await createAccount(
        app.db,
        request.user!,
        request.body.clientId,
        request.headers['idempotency-key'],
      );
      return sendCreated(reply, created);
    },
  );

  app.post(
    '/api/v1/admin/operations/manual-accrual',
    {
      preHandler: managers,
      schema: {
        tags: ['Accounts'],
        summary: 'Add points to an account (an adjustment operation); returns it and the new balance',
        description: `Points that would take the balance past ${MAX_BALANCE} are refused with 409 BALANCE_LIMIT_EXCEEDED, and any points for an account whose member's data was erased with 409 ACCOUNT_ERASED (its reasons were cleared; a new one would stay); nothing is written.`,
        headers: manualAccrualHeaders,
        body: manualAccrualRequest,
        // A refusal is an answer too when an Idempotency-Key replays it.
        response: { 201: manualAccrualResponse, 404: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const outcome = await manualAccrual(app.db, request.user!, request.body, {
        idempotencyKey: request.headers['idempotency-key'],
        requestId: request.id,
        keySecret,
      });
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(outcome.status as 201 | 404 | 409).send(outcome.body);
    },
  );
};
