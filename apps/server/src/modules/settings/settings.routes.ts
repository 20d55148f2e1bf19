import { settings, updateSettingsRequest } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMINS, ANY_ROLE } from '../../plugins/auth';
import { readSettings, updateSettings } from './settings.service';

/** Settings: GET/POST /api/v1/settings. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/settings',
    {
      preHandler: app.requireRole(...ANY_ROLE),
      schema: {
        tags: ['Settings'],
        summary: 'Hold TTL and card limit (null when not configured)',
        response: { 200: settings },
      },
    },
    async () => readSettings(app.db),
  );

  app.post(
    '/api/v1/settings',
    {
      preHandler: app.requireRole(...ADMINS),
      schema: {
        tags: ['Settings'],
        summary: 'Change the values sent (null clears one); returns the new settings',
        body: updateSettingsRequest,
        response: { 200: settings },
      },
    },
    async (request) => updateSettings(app.db, request.user!, request.body),
  );
};
