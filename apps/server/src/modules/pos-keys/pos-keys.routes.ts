import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Secrets } from '../../lib/secrets';

/** POS keys (admin side). */
export const posKeysRoutes: FastifyPluginAsyncZod<{ config: Config; secrets: Secrets }> = async () => {};
