import { auditEntry, auditListQuery } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { exportAudit, listAuditPage } from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/audit',
    {
      preHandler: app.requireRole('ADMIN'),
      schema: {
        tags: ['Audit'],
        summary: 'Audit log, newest first',
        querystring: auditListQuery,
        response: listResponses(auditEntry),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'audit', auditEntry, exportAudit(app.db, request.query))
        : listAuditPage(app.db, request.query),
  );
};
