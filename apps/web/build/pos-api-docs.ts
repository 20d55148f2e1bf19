import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const PAGE = 'pos-api-docs.html';

/**
 * The POS API screen's framed page, with Swagger UI as part of the console build. `@fastify/swagger-ui`
 * serves its 1.7 MB bundle uncompressed with `max-age=0`; emitted here, the bundle gets a content-hashed
 * name under assets/ (cached for a year by the server), and `.br`/`.gz` siblings from the precompress
 * plugin. The files are the server's own copy of Swagger UI, so /docs and this page show the same version.
 *
 * The page's template (`pos-api-docs/`) names the URLs the dev server answers (`/docs/static/…` through the
 * proxy); the build replaces each with its hashed asset.
 */
export function posApiDocs(): Plugin {
  let root = '';
  const sourceDir = () => join(root, 'pos-api-docs');
  const swaggerDir = () => {
    const fromServer = createRequire(join(root, '../server/package.json'));
    return join(dirname(fromServer.resolve('@fastify/swagger-ui')), 'static');
  };
  const assets: Record<string, () => string> = {
    '/docs/static/swagger-ui.css': () => join(swaggerDir(), 'swagger-ui.css'),
    '/docs/static/swagger-ui-bundle.js': () => join(swaggerDir(), 'swagger-ui-bundle.js'),
    '/pos-api-docs.css': () => join(sourceDir(), 'pos-api-docs.css'),
    '/pos-api-docs.js': () => join(sourceDir(), 'pos-api-docs.js'),
    // The console inlines it (build/inline-boot.ts); this page loads it as a file, its CSP being 'self'.
    '/theme-init.js': () => join(root, 'src/theme-init.inline.js'),
  };
  const isLocal = (path: string | undefined) =>
    path === '/theme-init.js' || path?.startsWith('/pos-api-docs.');

  return {
    name: 'loyalty:pos-api-docs',
    configResolved(config) {
      root = config.root;
    },
    // Dev: the template as is; its own two files from the source folder, Swagger UI through the proxy.
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const path = request.url?.split('?')[0];
        const file =
          path === `/${PAGE}` ? join(sourceDir(), PAGE) : isLocal(path) && assets[path as string]?.();
        if (!file) return next();
        response.setHeader('content-type', contentType(file));
        response.end(await readFile(file));
      });
    },
    async generateBundle() {
      let html = await readFile(join(sourceDir(), PAGE), 'utf8');
      for (const [url, file] of Object.entries(assets)) {
        if (!html.includes(`"${url}"`)) this.error(`${PAGE} does not reference ${url}`);
        const name = url.slice(url.lastIndexOf('/') + 1);
        const ref = this.emitFile({ type: 'asset', name, source: await readFile(file()) });
        html = html.replace(`"${url}"`, `"/${this.getFileName(ref)}"`);
      }
      this.emitFile({ type: 'asset', fileName: PAGE, source: html });
    },
  };
}

function contentType(file: string): string {
  if (file.endsWith('.html')) return 'text/html; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  return 'text/javascript; charset=utf-8';
}
