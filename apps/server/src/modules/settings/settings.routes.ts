import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Settings: GET/POST /api/v1/settings. */
export const settingsRoutes: FastifyPluginAsyncZod = async () => {};
