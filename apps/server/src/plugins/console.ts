import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiNotFound, isApiPath, pathOf } from './errors';

/** Vite writes content-hashed names under assets/: a changed file is a new URL, so caches may keep it forever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon) keeps its name across releases: revalidate each time. */
const REVALIDATE = 'no-cache';

/**
 * The probes and the scrape, with any suffix (`/readyz/`, `/healthz?x`, `/metrics/x`): a mistyped probe URL is
 * a JSON 404, never the console's 200 page, which a health check would read as "healthy" with the database down.
 */
const PROBE_PREFIXES = ['/healthz', '/readyz', '/metrics'];

function isProbePath(path: string): boolean {
  return PROBE_PREFIXES.some((p) => path.startsWith(p));
}

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
  if (!hasConsole) {
    // The APIs work without it (the tests and the fault tier run so), but an operator who set WEB_DIST to a
    // wrong folder would otherwise find out from a browser's 404, not from the log.
    app.log.warn(
      { webDist: distDir },
      `WEB_DIST: no built console in ${distDir} (no index.html); the APIs are served, the console is not`,
    );
  }
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
    const path = pathOf(request.url);
    if (!pageRequest || isApiPath(path) || isProbePath(path) || isMissingAsset(path) || !hasConsole) {
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
