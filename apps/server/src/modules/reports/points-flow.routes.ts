import { pointsFlowQuery, pointsFlowReport, pointsFlowRow } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCsv } from '../../lib/csv';
import { MANAGERS } from '../../plugins/auth';
import { pointsFlow } from './points-flow.service';

/** Finance reports (PROGRAMME-API §2), from the rollups kept in the writing transaction. */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/reports/points-flow',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Reports'],
        summary: 'Points flow: opening, earned, redeemed, returned, expired, adjusted, closing per period',
        description:
          'Periods are UTC days or months; from and to are days, both included. closing = opening + earned + ' +
          'adjusted − redeemed − returned − expired, a row’s closing is the next row’s opening, and without ' +
          'posId the last closing is Σ balances at the end of `to`. Rates are over the range. format=csv ' +
          'answers the rows as CSV.',
        querystring: pointsFlowQuery,
        response: {
          200: {
            content: {
              'application/json': { schema: pointsFlowReport },
              'text/csv': {
                schema: z.string().describe(`header row: ${Object.keys(pointsFlowRow.shape).join(',')}`),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const report = await pointsFlow(app.db, request.query);
      if (request.query.format !== 'csv') return report;
      return sendCsv(
        reply,
        'points-flow',
        pointsFlowRow,
        (async function* () {
          yield* report.rows;
        })(),
      );
    },
  );
};
