import {
  createdWebhook,
  createWebhookRequest,
  delivery,
  deliveryListQuery,
  deliveryParams,
  idParam,
  updateWebhookRequest,
  webhook,
  webhookListItem,
  webhookSecret,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { listResponses, sendCsv } from '../../lib/csv';
import type { Secrets } from '../../lib/secrets';
import { sendCreated } from '../../lib/send-created';
import { ADMINS } from '../../plugins/auth';
import { createIdempotencyHeaders } from '../ledger/admin-idempotency';
import { listWebhooks } from './webhooks.repository';
import {
  changeWebhook,
  createWebhook,
  deliveriesPage,
  exportDeliveries,
  removeWebhook,
  retryDelivery,
  revealWebhookSecret,
  sendTestEvent,
  webhookCrypto,
  webhookMustExist,
} from './webhooks.service';

/** Webhook endpoints and their deliveries (PROGRAMME-API §5): ADMIN only. */
export const webhooksRoutes: FastifyPluginAsyncZod<{ config: Config; secrets: Secrets }> = async (
  app,
  { config, secrets },
) => {
  const crypto = webhookCrypto(secrets);
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE;
  const tags = ['Webhooks'];
  const preHandler = app.requireRole(...ADMINS);

  app.get(
    '/api/v1/webhooks',
    {
      preHandler,
      schema: { tags, summary: 'List webhook endpoints', response: { 200: z.array(webhookListItem) } },
    },
    async () => listWebhooks(app.db),
  );

  app.post(
    '/api/v1/webhooks',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Add a webhook endpoint; its signing secret is in this answer only (then: reveal)',
        description:
          'Deliveries follow Standard Webhooks; `webhook-id` is `evt_<uuid>`, drawn for each event when it is ' +
          'written (unique across databases and restores from a backup; the body keeps the event `id`). Order: the events of one account (of one card when ' +
          'they have no account) are sent one after another in commit order, each after the previous attempt ' +
          'ended; different accounts in parallel; a failed one is retried later, after them. A 410 answer ' +
          'disables the endpoint; a 429 or 503 `Retry-After` later than the next retry is honoured, up to the ' +
          "schedule's last step. `account.erased`: a member was erased (the account with its `erased-…` client ID).",
        headers: createIdempotencyHeaders,
        body: createWebhookRequest,
        response: { 201: createdWebhook },
      },
    },
    async (request, reply) => {
      const created = await createWebhook(
        app.db,
        crypto,
        request.user!,
        request.body,
        allowPrivate,
        request.headers['idempotency-key'],
      );
      // The answer holds the signing secret: never stored by a cache.
      return sendCreated(reply.header('cache-control', 'no-store'), created);
    },
  );

  app.patch(
    '/api/v1/webhooks/:id',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Change a webhook endpoint (URL, description, event types, active or disabled)',
        params: idParam,
        body: updateWebhookRequest,
        response: { 200: webhook },
      },
    },
    async (request) => changeWebhook(app.db, request.user!, request.params.id, request.body, allowPrivate),
  );

  app.delete(
    '/api/v1/webhooks/:id',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its deliveries',
        params: idParam,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeWebhook(app.db, request.user!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/webhooks/:id/secret',
    {
      // A reveal is audited, so its HEAD is a route of its own (below), not the GET run without a body.
      exposeHeadRoute: false,
      preHandler,
      schema: {
        tags,
        summary: 'Reveal the signing secret (logged for audit)',
        params: idParam,
        response: { 200: webhookSecret },
      },
    },
    async (request, reply) => {
      const revealed = await revealWebhookSecret(app.db, crypto, request.user!, request.params.id);
      return reply.header('cache-control', 'no-store').send(revealed);
    },
  );

  // HEAD answers what GET would (roles, 404) but reveals and logs nothing (HEAD is safe, RFC 9110 9.2.1).
  app.head(
    '/api/v1/webhooks/:id/secret',
    { preHandler, schema: { hide: true, params: idParam } },
    async (request, reply) => {
      await webhookMustExist(app.db, request.params.id);
      return reply.header('cache-control', 'no-store').send();
    },
  );

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      preHandler,
      schema: {
        tags,
        summary: "An endpoint's deliveries, newest first",
        params: idParam,
        querystring: deliveryListQuery,
        response: listResponses(delivery),
      },
    },
    async (request, reply) => {
      const filter = { webhookId: request.params.id, ...request.query };
      return request.query.format === 'csv'
        ? sendCsv(reply, 'webhook-deliveries', delivery, await exportDeliveries(app.db, filter))
        : deliveriesPage(app.db, filter);
    },
  );

  app.post(
    '/api/v1/webhooks/:id/deliveries/:deliveryId/retry',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Send a delivery again now (a finished one gets a fresh retry schedule)',
        params: deliveryParams,
        response: { 200: delivery },
      },
    },
    async (request) => retryDelivery(app.db, request.user!, request.params.id, request.params.deliveryId),
  );

  app.post(
    '/api/v1/webhooks/:id/test',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Queue a webhook.test event for this endpoint',
        params: idParam,
        response: { 201: delivery },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await sendTestEvent(app.db, request.user!, request.params.id)),
  );
};
