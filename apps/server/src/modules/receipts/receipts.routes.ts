import { receiptDetail, receiptParams } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANY_ROLE } from '../../plugins/auth';
import { receiptOfOperation } from './receipts.service';

/** Receipt details by operation. */
export const receiptsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/receipts/operation/:id',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Receipts'],
        summary: 'The receipt an accrual was earned on, with its lines',
        params: receiptParams,
        response: { 200: receiptDetail },
      },
    },
    async (request) => receiptOfOperation(app.db, request.params.id),
  );
};
