import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFound, isApiPath } from './errors';

/**
 * Serves the built console. Any GET that is not an API path and not a file gets `index.html`, and the
 * console's router takes it from there (unknown console paths redirect to `/` in the browser).
 */
export async function registerConsole(app: FastifyInstance, distDir: string) {
  const hasConsole = existsSync(join(distDir, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || isApiPath(request.url) || !hasConsole) return apiNotFound(request, reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
