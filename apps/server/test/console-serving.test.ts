import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { errorCatalogue, isErrorCode } from '@loyalty/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext } from './helper';

// A stand-in for the built console with what the web build writes: hashed assets under assets/ with their
// .br and .gz siblings, index.html (also precompressed), and unhashed files at the root.
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
afterAll(() => rmSync(webDist, { recursive: true, force: true }));
const indexHtml = `<!doctype html><title>Loyalty Admin</title>${'<!-- padding -->'.repeat(40)}`;
const chunk = `export const answer = ${JSON.stringify('x'.repeat(2000))};`;
mkdirSync(join(webDist, 'assets'));
const files: Record<string, string> = {
  'index.html': indexHtml,
  'assets/index-AbC123xy.js': chunk,
  'assets/index-AbC123xy.css': `body{color:red}${'.a{margin:0}'.repeat(100)}`,
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(webDist, name), text);
  if (name === 'favicon.svg') continue; // too small to be worth it: the build leaves such files plain
  writeFileSync(join(webDist, `${name}.br`), brotliCompressSync(text));
  writeFileSync(join(webDist, `${name}.gz`), gzipSync(text));
}

const ctx = await createTestContext({ WEB_DIST: webDist });
const { app } = ctx;

const JS = '/assets/index-AbC123xy.js';

describe('precompressed console assets', () => {
  it('sends the brotli sibling when the browser accepts it, gzip otherwise, and plain bytes to the rest', async () => {
    const br = await app.inject({ url: JS, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(chunk);
    expect(br.rawPayload.length).toBeLessThan(chunk.length / 10);

    const gz = await app.inject({ url: JS, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(chunk);

    const plain = await app.inject({ url: JS, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(chunk);
  });

  it('compresses index.html for console routes too', async () => {
    for (const url of ['/', '/login', '/dashboard']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(indexHtml);
    }
  });

  it('serves a file without siblings as it is', async () => {
    const res = await app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(files['favicon.svg']);
  });

  it('does not expose the compressed siblings as URLs, and answers a missing asset with 404', async () => {
    for (const url of [`${JS}.br`, `${JS}.gz`, '/assets/index-Gone0000.js']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });
});

describe('cache policy', () => {
  it('lets caches keep hashed assets for a year', async () => {
    for (const url of [JS, '/assets/index-AbC123xy.css']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': encoding } });
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
    }
  });

  it('revalidates index.html, the SPA fallback and unhashed files on every use', async () => {
    for (const url of ['/', '/login', '/some/unknown/path?x=1', '/index.html', '/favicon.svg']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });
});

describe('HEAD', () => {
  it('answers HEAD like GET, without a body, on console pages, files and API routes', async () => {
    for (const url of [
      '/',
      '/login',
      '/dashboard',
      JS,
      '/favicon.svg',
      '/healthz',
      '/readyz',
      '/openapi.json',
    ]) {
      const get = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      const head = await app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
      expect(head.statusCode, url).toBe(200);
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.headers['content-encoding'], url).toBe(get.headers['content-encoding']);
      expect(head.headers['cache-control'], url).toBe(get.headers['cache-control']);
      expect(head.rawPayload.length, url).toBe(0);
    }
  });

  it('registers a HEAD route for every GET route', () => {
    const getRoutes = app.printRoutes({ method: 'GET', commonPrefix: false });
    const headRoutes = app.printRoutes({ method: 'HEAD', commonPrefix: false });
    expect(getRoutes.split('\n').length).toBeGreaterThan(20);
    expect(headRoutes.replaceAll('HEAD', 'GET')).toBe(getRoutes);
  });

  it('keeps HEAD on an unknown API path a 404', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
  });
});

describe("the static files' errors carry the code of their status", () => {
  /** The envelope, and its code is the catalogue's code for the status the response has. */
  const expectEnvelope = (
    res: { statusCode: number; json(): { status: number; code: string } },
    code: string,
  ) => {
    const body = res.json();
    expect(body).toMatchObject({ status: res.statusCode, code });
    expect(isErrorCode(body.code) && errorCatalogue[body.code].status).toBe(res.statusCode);
  };

  it("a forbidden path under Swagger UI's files is a 403 FORBIDDEN (it was BAD_REQUEST)", async () => {
    // @fastify/static refuses non-canonical paths (an empty segment, a NUL byte) with its own 403.
    for (const url of ['/docs/static//swagger-ui.css', '/docs/static/%00']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(403);
      expectEnvelope(res, 'FORBIDDEN');
    }
  });

  it('a range past the end of a console file is a 416 RANGE_NOT_SATISFIABLE', async () => {
    for (const encoding of ['br', 'identity']) {
      const res = await app.inject({
        url: JS,
        headers: { range: 'bytes=99999999-', 'accept-encoding': encoding },
      });
      expect(res.statusCode, encoding).toBe(416);
      expectEnvelope(res, 'RANGE_NOT_SATISFIABLE');
    }
  });

  it('a failed If-Match or If-Unmodified-Since on a console file is a 412 PRECONDITION_FAILED', async () => {
    for (const headers of [
      { 'if-match': '"not-this-one"' },
      { 'if-unmodified-since': 'Mon, 01 Jan 1990 00:00:00 GMT' },
    ]) {
      const res = await app.inject({ url: JS, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(412);
      expectEnvelope(res, 'PRECONDITION_FAILED');
    }
  });
});
