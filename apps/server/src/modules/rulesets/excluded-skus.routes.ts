import {
  createExcludedSkuRequest,
  excludedSku,
  excludedSkuListQuery,
  idParam,
  rulesetSkuParams,
  skuCategories,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { ANY_ROLE, MANAGERS } from '../../plugins/auth';
import {
  excludeSku,
  exportExcludedSkus,
  includeSku,
  listCategories,
  listExcludedSkusPage,
} from './excluded-skus.service';

export const excludedSkusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/rulesets/:id/excluded-skus',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Rulesets'],
        summary: "A ruleset's excluded SKUs; `category=` (empty) lists those without a category",
        params: idParam,
        querystring: excludedSkuListQuery,
        response: listResponses(excludedSku),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(
            reply,
            'excluded-skus',
            excludedSku,
            await exportExcludedSkus(app.db, request.params.id, request.query),
          )
        : listExcludedSkusPage(app.db, request.params.id, request.query),
  );

  app.post(
    '/api/v1/rulesets/:id/excluded-skus',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Rulesets'],
        summary: 'Exclude a SKU from accrual in this ruleset',
        params: idParam,
        body: createExcludedSkuRequest,
        response: { 201: excludedSku },
      },
    },
    async (request, reply) => {
      const added = await excludeSku(app.db, request.user!, request.params.id, request.body);
      return reply.code(201).send(added);
    },
  );

  app.delete(
    '/api/v1/rulesets/:id/excluded-skus/:sku',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Rulesets'],
        summary: 'Remove a SKU from the exclusions (URL-encode the SKU)',
        params: rulesetSkuParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await includeSku(app.db, request.user!, request.params.id, request.params.sku);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/rulesets/:id/excluded-skus-categories',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Rulesets'],
        summary: 'Distinct categories of the excluded SKUs, sorted',
        params: idParam,
        response: { 200: skuCategories },
      },
    },
    async (request) => listCategories(app.db, request.params.id),
  );
};
