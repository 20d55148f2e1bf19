import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiNotFound, isApiPath } from './errors';

/** Vite writes content-hashed names under assets/: a changed file is a new URL, so caches may keep it forever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon) keeps its name across releases: revalidate each time. */
const REVALIDATE = 'no-cache';

/** Cache policy by path inside the built console. */
export function cacheControlFor(distDir: string, filePath: string): string {
  const inDist = relative(distDir, filePath).split(sep);
  return inDist.length > 1 && inDist[0] === 'assets' && basename(filePath) !== 'index.html'
    ? IMMUTABLE
    : REVALIDATE;
}

/**
 * Serves the built console. The build writes `.br` and `.gz` beside each text asset and the static plugin
 * picks one by Accept-Encoding (`Vary: Accept-Encoding`), so nothing is compressed per request. Any GET or
 * HEAD that is not an API path and not a file gets `index.html`, and the console's router takes it from
 * there (unknown console paths redirect to `/` in the browser).
 */
export async function registerConsole(app: FastifyInstance, distDir: string) {
  const hasConsole = existsSync(join(distDir, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed siblings are served in place of their file, never as URLs of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      // `send`'s own `max-age=0` would be overwritten anyway; the policy is set per file below.
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(distDir, filePath));
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (!pageRequest || isApiPath(request.url) || isMissingAsset(request.url) || !hasConsole) {
      return apiNotFound(request, reply);
    }
    return sendIndex(reply);
  });
}

/**
 * A build file that does not exist (an old chunk after a release) is a 404, not the HTML page: the page
 * would reach the browser as a script of the wrong type instead of a failed import the console can report.
 */
function isMissingAsset(url: string): boolean {
  return url.startsWith('/assets/');
}

// HEAD gets the same status and headers as GET; Node drops the body of a HEAD response itself.
function sendIndex(reply: FastifyReply) {
  return reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).sendFile('index.html');
}
