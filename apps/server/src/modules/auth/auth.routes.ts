import { errorBody, loginRequest, loginResponse } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { login } from './auth.service';

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
    async (request) => login(app.db, app.tokens, config, { ...request.body, address: request.ip }),
  );
};
