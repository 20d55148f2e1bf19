import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { bearer, createTestContext } from './helper';

// A tiny stand-in for the built console, so the history fallback can be tested without a web build.
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
afterAll(() => rmSync(webDist, { recursive: true, force: true }));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Loyalty Admin</title>');
writeFileSync(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const ctx = await createTestContext({ WEB_DIST: webDist });
const { app } = ctx;

describe('error model', () => {
  it('answers unknown API routes with the 404 envelope and a request id', async () => {
    for (const url of ['/api/v1/nope', '/auth/api/v1/nope', '/pos/api/v1/nope', '/api']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(404);
      const body = res.json();
      expect(body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(body.requestId).toBe(res.headers['x-request-id']);
    }
  });

  it('answers an API path with a query string with the envelope too, never the console', async () => {
    for (const url of ['/api?x=1', '/pos?x', '/auth?x=1', '/api/?x=1', '/api/v1/nope?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('turns a malformed JSON body into a 400, never a 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "admin", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: 'Malformed JSON body' });
  });

  it('rejects a non-JSON content type with 415 and an empty JSON body with 400', async () => {
    const text = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const empty = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
  });

  it('keeps a request id the caller sends, and makes one otherwise', async () => {
    const mine = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers['x-request-id']).toBe('trace-123');
    const made = await app.inject({ url: '/healthz' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });
});

describe('health and docs', () => {
  it('healthz and readyz', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('serves OpenAPI 3 built from the route schemas, and Swagger UI at /swagger.html', async () => {
    const spec = (await app.inject({ url: '/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.paths['/auth/api/v1/login'].post).toBeDefined();
    expect(spec.paths['/auth/api/v1/users/{id}'].delete).toBeDefined();
    expect(spec.paths['/api/v1/audit'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'size', 'username', 'targetType', 'targetId', 'search']),
    );
    expect(spec.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', name: 'X-API-Key' });
    const page = await app.inject({ url: '/swagger.html' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect((await app.inject({ url: '/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(200);
  });
});

describe('console hosting', () => {
  it('serves files, and index.html for any other console path', async () => {
    expect((await app.inject({ url: '/favicon.svg' })).statusCode).toBe(200);
    for (const url of ['/', '/users', '/some/unknown/path?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>Loyalty Admin</title>');
    }
  });

  it('answers a mistyped probe or scrape URL with a 404 envelope, never the console page', async () => {
    // A probe on `/readyz/` that got the console's 200 would call a server healthy with its database down.
    for (const url of ['/readyz/', '/healthz/', '/metrics/', '/readyz/x', '/healthzz', '/metrics/?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
  });

  it('never answers an API path with the console', async () => {
    const res = await app.inject({ url: '/api/v1/unknown', headers: bearer(ctx.tokens.ADMIN) });
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe('configuration', () => {
  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with postgres/);
    expect(() => loadConfig({ POS_KEY_SECRET: 'short' })).toThrow(/POS_KEY_SECRET/);
  });

  it('refuses a DATABASE_URL node-postgres cannot parse; one without a host is PGHOST or localhost', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@' })).toThrow(/DATABASE_URL: is not a valid URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h:99999/db' })).toThrow(
      /DATABASE_URL: is not a valid URL/,
    );
    for (const url of [
      // libpq's and node-postgres's form for PGHOST or localhost.
      'postgres:///loyalty',
      'postgresql://u:p@/loyalty',
      'postgres://user:pw@db.example:5432/loyalty',
      'postgresql://[::1]/loyalty',
      // A Unix socket folder, with and without a user: both forms node-postgres takes.
      'postgres:///loyalty?host=/var/run/postgresql',
      'postgres://user@/loyalty?host=/var/run/postgresql',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL, url).toBe(url);
    }
  });

  it('refuses retry delays, an event retention and a sign-in window too long for SQL date arithmetic', () => {
    // Each was accepted and failed later in a worker (`interval out of range`, `timestamp out of range`).
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,99999999999999' })).toThrow(
      /WEBHOOK_RETRY_SCHEDULE: each retry must be at most 2592000 seconds/,
    );
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,2592000' }).WEBHOOK_RETRY_SCHEDULE).toEqual([
      5, 2_592_000,
    ]);
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '99999999' })).toThrow(/EVENT_RETENTION_DAYS/);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '36500' }).EVENT_RETENTION_DAYS).toBe(36_500);
    expect(() => loadConfig({ LOGIN_WINDOW_SECONDS: '99999999999' })).toThrow(/LOGIN_WINDOW_SECONDS/);
    expect(loadConfig({ LOGIN_WINDOW_SECONDS: '2592000' }).LOGIN_WINDOW_SECONDS).toBe(2_592_000);
  });

  it('refuses a timer longer than a timer can be (Node would run it after 1 ms: a sweeper back to back)', () => {
    const month = String(30 * 86_400_000);
    for (const name of [
      'HOLD_SWEEP_INTERVAL_MS',
      'POINTS_EXPIRY_INTERVAL_MS',
      'WEBHOOK_POLL_INTERVAL_MS',
      'LOGIN_SLOWDOWN_MAX_MS',
      'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    ]) {
      expect(() => loadConfig({ [name]: month }), name).toThrow(new RegExp(name));
      expect(loadConfig({ [name]: '2147483647' })).toMatchObject({ [name]: 2_147_483_647 });
    }
  });

  it('treats empty values as unset and applies the documented defaults', () => {
    const config = loadConfig({ PORT: '', DATA_DIR: '' });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      ADMIN_USERNAME: 'admin',
      SESSION_TTL_SECONDS: 28800,
    });
  });

  it('builds without a console and answers non-API paths with a 404 envelope', async () => {
    const bare = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }),
      database: ctx.database,
      secrets: { jwtSecret: 'x'.repeat(40), posKeySecret: '0'.repeat(64) },
    });
    const res = await bare.inject({ url: '/users' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    await bare.close();
  });
});
