import { auditEntry, auditListQuery, pagedResponse } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listAuditPage } from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/audit',
    {
      preHandler: app.requireRole('ADMIN'),
      schema: {
        tags: ['Audit'],
        summary: 'Audit log, newest first',
        querystring: auditListQuery,
        response: { 200: pagedResponse(auditEntry) },
      },
    },
    async (request) => {
      return listAuditPage(app.db, request.query);
    },
  );
};
