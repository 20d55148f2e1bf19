import {
  backtestRequest,
  backtestResponse,
  createRulesetRequest,
  idParam,
  ruleset,
  rulesetListQuery,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { sendCreated } from '../../lib/send-created';
import { ADMINS, ANY_ROLE, MANAGERS } from '../../plugins/auth';
import { createIdempotencyHeaders } from '../ledger/admin-idempotency';
import { backtestRuleset } from './backtest.service';
import { excludedSkusRoutes } from './excluded-skus.routes';
import { createRuleset, exportRulesets, listRulesetsPage, retireRuleset } from './rulesets.service';

/** Rulesets and their excluded SKUs. */
export const rulesetsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/rulesets',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Rulesets'],
        summary: 'List rulesets (status derived from activeFrom; search matches the version)',
        querystring: rulesetListQuery,
        response: listResponses(ruleset),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'rulesets', ruleset, exportRulesets(app.db, request.query))
        : listRulesetsPage(app.db, request.query),
  );

  app.post(
    '/api/v1/rulesets',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Rulesets'],
        summary: 'Create a ruleset; an absent version is the current time in seconds',
        headers: createIdempotencyHeaders,
        body: createRulesetRequest,
        response: { 201: ruleset },
      },
    },
    async (request, reply) => {
      const created = await createRuleset(
        app.db,
        request.user!,
        request.body,
        request.headers['idempotency-key'],
      );
      return sendCreated(reply, created);
    },
  );

  app.post(
    '/api/v1/rulesets/:id/retire',
    {
      preHandler: app.requireRole(...ADMINS),
      schema: {
        tags: ['Rulesets'],
        summary: 'Retire a ruleset: it is never in force again and stays listed as Retired',
        description:
          'ADMIN only, unlike the other ruleset writes: it cannot be undone, and retiring the ruleset in force puts the next eligible version in force, or none (accruals then answer 409 NO_ACTIVE_RULESET).',
        params: idParam,
        response: { 200: ruleset },
      },
    },
    async (request) => retireRuleset(app.db, request.user!, request.params.id),
  );

  app.post(
    '/api/v1/rulesets/:id/backtest',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Rulesets'],
        summary: "Recompute the stored receipts of [from, to) with this ruleset's rules; writes nothing",
        params: idParam,
        body: backtestRequest,
        response: { 200: backtestResponse },
      },
    },
    async (request) => backtestRuleset(app.db, request.params.id, request.body),
  );

  await app.register(excludedSkusRoutes);
};
