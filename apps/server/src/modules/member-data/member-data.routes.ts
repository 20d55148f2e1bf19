import { account, eraseAccountRequest, idParam, memberDataExport } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Secrets } from '../../lib/secrets';
import { ADMINS } from '../../plugins/auth';
import { erasedClientSecret } from './erased-client-secret';
import { eraseMember, exportMemberData } from './member-data.service';

/** A member's right to their data and to erasure (PROGRAMME-API §4), administrators only. */
export const memberDataRoutes: FastifyPluginAsyncZod<{ secrets: Secrets }> = async (app, { secrets }) => {
  const adminOnly = app.requireRole(...ADMINS);
  const keySecret = erasedClientSecret(secrets);

  app.get(
    '/api/v1/accounts/:id/export',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Accounts'],
        summary: "A member's data as one JSON document: account, cards, operations, receipts, lots",
        description:
          'Each export is audited (target the account: who exported it, and how many cards, operations, receipts ' +
          'and lots it held).',
        params: idParam,
        response: { 200: memberDataExport },
      },
    },
    async (request, reply) => {
      const document = await exportMemberData(app.db, request.user!, request.params.id);
      const day = document.exportedAt.slice(0, 10);
      return reply
        .header('content-disposition', `attachment; filename="member-${request.params.id}-${day}.json"`)
        .send(document);
    },
  );

  app.post(
    '/api/v1/accounts/:id/erase',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Accounts'],
        summary:
          "Erase a member: client ID → erased-<first 8 of id>, cards blocked 'Erased', operation reasons cleared; confirm with the client ID",
        description:
          'In one transaction with the erasure, an `account.erased` event (the account as this answer shows it) ' +
          'tells the systems that copied the client ID that the member is gone; afterwards the account takes no ' +
          'manual accrual or bulk credit (409 ACCOUNT_ERASED). The confirmation is compared in the client ' +
          "ID's canonical form.",
        params: idParam,
        body: eraseAccountRequest,
        response: { 200: account },
      },
    },
    async (request) => eraseMember(app.db, request.user!, request.params.id, request.body.confirm, keySecret),
  );
};
