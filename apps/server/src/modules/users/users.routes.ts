import { createUserRequest, idParam, user, userListQuery } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listResponses, sendCsv } from '../../lib/csv';
import { ADMINS } from '../../plugins/auth';
import { createUser, exportUsers, listUsersPage, removeUser, unlockUser } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = app.requireRole(...ADMINS);

  app.get(
    '/auth/api/v1/users',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Users'],
        summary: 'List users',
        querystring: userListQuery,
        response: listResponses(user),
      },
    },
    async (request, reply) =>
      request.query.format === 'csv'
        ? sendCsv(reply, 'users', user, exportUsers(app.db, request.query))
        : listUsersPage(app.db, request.query),
  );

  app.post(
    '/auth/api/v1/users',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Users'],
        summary: 'Create a user; they can sign in at once',
        body: createUserRequest,
        response: { 201: user },
      },
    },
    async (request, reply) => {
      const created = await createUser(app.db, request.user ?? null, request.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/auth/api/v1/users/:id',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Users'],
        summary: 'Delete a user (not yourself, not the last administrator)',
        params: idParam,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeUser(app.db, request.user!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/api/v1/users/:id/unlock',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['Users'],
        summary: "Unlock sign-in: clear the user's failed attempts from every address",
        params: idParam,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await unlockUser(app.db, request.user!, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
