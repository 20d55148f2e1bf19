import {
  accountIdParam,
  blockCardRequest,
  bulkBlockCardsRequest,
  bulkBlockCardsResponse,
  card,
  cardListItem,
  cardListQuery,
  idParam,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { sendCreated } from '../../lib/send-created';
import { ANY_ROLE, MANAGERS } from '../../plugins/auth';
import { createIdempotencyHeaders } from '../ledger/admin-idempotency';
import { blockCard, blockCards, exportCards, issueCard, listCardsPage, reissueCard } from './cards.service';

/** Cards: list, issue, block (one or several), reissue. */
export const cardsRoutes: FastifyPluginAsyncZod = async (app) => {
  const managers = app.requireRole(...MANAGERS);

  app.get(
    '/api/v1/cards',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Cards'],
        summary: 'List cards; search is a card-number prefix, a client ID (any case) or an exact account id',
        querystring: cardListQuery,
        response: listResponses(cardListItem),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'cards', cardListItem, exportCards(app.db, request.query))
        : listCardsPage(app.db, request.query),
  );

  app.post(
    '/api/v1/cards/issue/:accountId',
    {
      preHandler: managers,
      schema: {
        tags: ['Cards'],
        summary: 'Issue a new active card (random 16-digit Luhn number) for an account',
        headers: createIdempotencyHeaders,
        params: accountIdParam,
        response: { 201: card },
      },
    },
    async (request, reply) => {
      const issued = await issueCard(
        app.db,
        request.user!,
        request.params.accountId,
        request.headers['idempotency-key'],
      );
      return sendCreated(reply, issued);
    },
  );

  app.post(
    '/api/v1/cards/:id/block',
    {
      preHandler: managers,
      schema: {
        tags: ['Cards'],
        summary: "Block an active card (reason optional, default 'Blocked by admin')",
        params: idParam,
        body: blockCardRequest,
        response: { 200: card },
      },
    },
    async (request) => blockCard(app.db, request.user!, request.params.id, request.body?.reason ?? null),
  );

  app.post(
    '/api/v1/cards/block',
    {
      preHandler: managers,
      schema: {
        tags: ['Cards'],
        summary: 'Block several cards with one reason; the outcome of each card, in the order of ids',
        description:
          'One transaction. A card that cannot be blocked (unknown, already blocked, pending) is reported ' +
          'as failed with the code the single block answers and stays as it is; every blocked card gets ' +
          "its own audit entry. A blank reason becomes 'Blocked by admin'.",
        body: bulkBlockCardsRequest,
        response: { 200: bulkBlockCardsResponse },
      },
    },
    async (request) => blockCards(app.db, request.user!, request.body.ids, request.body.reason),
  );

  app.post(
    '/api/v1/cards/:id/reissue',
    {
      preHandler: managers,
      schema: {
        tags: ['Cards'],
        summary: 'Replace an active or blocked card with a new number; returns the new card',
        params: idParam,
        response: { 201: card },
      },
    },
    async (request, reply) => {
      const issued = await reissueCard(app.db, request.user!, request.params.id);
      return reply.code(201).send(issued);
    },
  );
};
