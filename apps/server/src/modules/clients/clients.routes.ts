import { clientLookupParams, clientLookupQuery, clientLookupResponse } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANY_ROLE } from '../../plugins/auth';
import { lookupClient } from './clients.service';

/** Client lookup. */
export const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/clients/:id/lookup',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Client lookup'],
        summary: 'Find a client by card number, client ID or account id; three independently paged sections',
        params: clientLookupParams,
        querystring: clientLookupQuery,
        response: { 200: clientLookupResponse },
      },
    },
    async (request) => lookupClient(app.db, request.params.id, request.query),
  );
};
