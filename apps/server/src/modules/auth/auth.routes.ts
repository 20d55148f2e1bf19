import { loginRequest, loginResponse } from '@loyalty/contracts';
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
        response: { 200: loginResponse },
      },
    },
    async (request) => login(app.db, app.tokens, config, { ...request.body, address: request.ip }),
  );
};
