import {
  expirePointsResponse,
  expiryForecast,
  idParam,
  lot,
  lotConsumption,
  lotConsumptionListQuery,
  lotListQuery,
  lotParams,
  pagedResponse,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMINS, ANY_ROLE } from '../../plugins/auth';
import { accountExpiryForecast, accountLots, lotConsumptions, runPointsExpiry } from './lots.service';

/** Points lots (PROGRAMME-API §1): an account's lots and what expires soon; an expiry run on demand. */
export const lotsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/accounts/:id/lots',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Accounts'],
        summary: "The account's points lots, newest first (status: open | spent | expired)",
        params: idParam,
        querystring: lotListQuery,
        response: { 200: pagedResponse(lot) },
      },
    },
    async (request) => accountLots(app.db, request.params.id, request.query),
  );

  app.get(
    '/api/v1/accounts/:id/lots/:lotId/consumptions',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Accounts'],
        summary:
          'What the debits took from one lot of the account (operation, type, points, when), oldest first',
        params: lotParams,
        querystring: lotConsumptionListQuery,
        response: { 200: pagedResponse(lotConsumption) },
      },
    },
    async (request) => lotConsumptions(app.db, request.params.id, request.params.lotId, request.query),
  );

  app.get(
    '/api/v1/accounts/:id/expiry-forecast',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Accounts'],
        summary: 'Points of the account that expire within 30, 60 and 90 days',
        params: idParam,
        response: { 200: expiryForecast },
      },
    },
    async (request) => accountExpiryForecast(app.db, request.params.id),
  );

  app.post(
    '/api/v1/admin/points/expire',
    {
      preHandler: app.requireRole(...ADMINS),
      schema: {
        tags: ['Accounts'],
        summary: 'Run the points expiry now: how many accounts had points expire, and how many points',
        response: { 200: expirePointsResponse },
      },
    },
    async (request) => runPointsExpiry(app.db, request.user!),
  );
};
