import { idParam, operation, operationListQuery } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { ANY_ROLE } from '../../plugins/auth';
import { exportOperations, getOperation, listOperationsPage } from './operations.service';

/** Operations history. Manual accrual (POST /api/v1/admin/operations/manual-accrual) lives with accounts. */
export const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const anyRole = app.requireRole(...ANY_ROLE);

  app.get(
    '/api/v1/operations',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Operations'],
        summary: 'Operations, newest first; search is a card-number or operation-id prefix',
        querystring: operationListQuery,
        response: listResponses(operation),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'operations', operation, exportOperations(app.db, request.query))
        : listOperationsPage(app.db, request.query),
  );

  app.get(
    '/api/v1/operations/:id',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Operations'],
        summary: 'One operation by its id',
        params: idParam,
        response: { 200: operation },
      },
    },
    async (request) => getOperation(app.db, request.params.id),
  );
};
