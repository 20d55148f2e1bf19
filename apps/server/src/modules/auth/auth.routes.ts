import { errorBody, loginRequest, loginResponse } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { login, logout, SignInRefused } from './auth.service';

export const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.post(
    '/auth/api/v1/login',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Sign in; returns a session token',
        security: [],
        body: loginRequest,
        // 401: wrong username or password; 429: too many failures from this address.
        response: { 200: loginResponse, 401: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      try {
        return await login(app.db, app.tokens, config, { ...request.body, address: request.ip });
      } catch (error) {
        if (error instanceof SignInRefused) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  app.post(
    '/auth/api/v1/logout',
    {
      // Any signed-in user; the route sits outside the session scope of app.ts with the sign-in.
      onRequest: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'Sign out; the session token is refused from then on',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await logout(app.db, request.user!, request.authSession!, request.ip);
      return reply.code(204).send(null);
    },
  );
};
