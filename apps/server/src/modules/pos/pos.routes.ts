import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';

/** POS API: authenticated by X-API-Key, not by session. */
export const posRoutes: FastifyPluginAsyncZod<{ config: Config }> = async () => {};
