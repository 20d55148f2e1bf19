import {
  createPosKeyRequest,
  idParam,
  posKey,
  posKeyListQuery,
  posKeyReveal,
  updatePosKeyRequest,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { listResponses, sendCsv } from '../../lib/csv';
import type { Secrets } from '../../lib/secrets';
import { sendCreated } from '../../lib/send-created';
import { ADMINS, ANY_ROLE, MANAGERS } from '../../plugins/auth';
import { createIdempotencyHeaders } from '../ledger/admin-idempotency';
import { createKeyCrypto } from './key-crypto';
import {
  createPosKey,
  exportPosKeys,
  listPosKeysPage,
  posKeyMustExist,
  revealPosKey,
  setPosKeyStatus,
} from './pos-keys.service';

/** POS keys (admin side). */
export const posKeysRoutes: FastifyPluginAsyncZod<{ config: Config; secrets: Secrets }> = async (
  app,
  { secrets },
) => {
  const crypto = createKeyCrypto(secrets.posKeySecret);

  app.get(
    '/api/v1/pos-keys',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['POS keys'],
        summary: 'List POS keys (never the keys themselves)',
        description:
          "lastUsedAt is the time of the key's latest successful call, written at most once every 5 seconds per key (a busy till would otherwise rewrite its key's row on every call), so it may be up to 5 seconds behind.",
        querystring: posKeyListQuery,
        response: listResponses(posKey),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'pos-keys', posKey, exportPosKeys(app.db, request.query))
        : listPosKeysPage(app.db, request.query),
  );

  app.post(
    '/api/v1/pos-keys',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['POS keys'],
        summary: 'Create a POS key (at least 32 characters; stored hashed and encrypted)',
        headers: createIdempotencyHeaders,
        body: createPosKeyRequest,
        response: { 201: posKey },
      },
    },
    async (request, reply) => {
      const created = await createPosKey(
        app.db,
        crypto,
        request.user!,
        request.body,
        request.headers['idempotency-key'],
      );
      return sendCreated(reply, created);
    },
  );

  app.patch(
    '/api/v1/pos-keys/:id',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['POS keys'],
        summary: 'Activate or deactivate a POS key',
        params: idParam,
        body: updatePosKeyRequest,
        response: { 200: posKey },
      },
    },
    async (request) => {
      return setPosKeyStatus(app.db, request.user!, request.params.id, request.body.status);
    },
  );

  app.get(
    '/api/v1/pos-keys/:id/reveal',
    {
      // A reveal is audited, so its HEAD is a route of its own (below), not the GET run without a body.
      exposeHeadRoute: false,
      preHandler: app.requireRole(...ADMINS),
      schema: {
        tags: ['POS keys'],
        summary: 'Reveal a POS key (ADMIN only; logged for audit)',
        params: idParam,
        response: { 200: posKeyReveal },
      },
    },
    async (request, reply) => {
      const revealed = await revealPosKey(app.db, crypto, request.user!, request.params.id);
      return reply.header('cache-control', 'no-store').send(revealed);
    },
  );

  // HEAD answers what GET would (roles, 404) but reveals and logs nothing: HEAD is safe (RFC 9110 9.2.1), and a
  // link checker or proxy must not fill the audit trail with reveals that showed nothing.
  app.head(
    '/api/v1/pos-keys/:id/reveal',
    { preHandler: app.requireRole(...ADMINS), schema: { hide: true, params: idParam } },
    async (request, reply) => {
      await posKeyMustExist(app.db, request.params.id);
      return reply.header('cache-control', 'no-store').send();
    },
  );
};
