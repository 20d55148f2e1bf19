import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;

interface Operation {
  responses: Record<string, { content?: unknown }>;
}
const document = (await app.inject({ url: '/openapi.json' })).json() as {
  paths: Record<string, Record<string, Operation>>;
};
const operation = (path: string, method: string) => document.paths[path]![method]!;

describe('the API document tells the whole truth (issue 15.6)', () => {
  it('admin operations declare their error statuses, not only their success', () => {
    expect(Object.keys(operation('/api/v1/rulesets', 'post').responses).sort()).toEqual(
      ['201', '400', '401', '403', '404', '409', '413', '415', '500', '503'].sort(),
    );
    expect(Object.keys(operation('/api/v1/accounts/{id}', 'get').responses).sort()).toEqual(
      ['200', '400', '401', '403', '404', '414', '500', '503'].sort(),
    );
    expect(Object.keys(operation('/auth/api/v1/login', 'post').responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    );
    const envelope = JSON.stringify(operation('/api/v1/cards', 'get').responses['403']);
    for (const field of ['status', 'message', 'code']) expect(envelope).toContain(field);
  });

  it('a 204 is declared without a JSON body', () => {
    expect(operation('/auth/api/v1/users/{id}', 'delete').responses['204']).toEqual({
      description: 'No Content',
    });
    expect(
      operation('/api/v1/rulesets/{id}/excluded-skus/{sku}', 'delete').responses['204']!.content,
    ).toBeUndefined();
  });

  it('enforced constraints appear in the document', () => {
    const json = (path: string, method: string) =>
      JSON.stringify((document.paths[path]![method] as unknown as { requestBody: unknown }).requestBody);
    expect(json('/pos/api/v1/holds', 'post')).toMatch(/"points":\{[^}]*"minimum":0.01[^}]*"multipleOf":0.01/);
    expect(json('/pos/api/v1/accruals', 'post')).toMatch(/"quantity":\{[^}]*"exclusiveMinimum":true/);
    expect(json('/api/v1/pos-keys', 'post')).toMatch(/"apiKey":\{[^}]*"minLength":32/);
    expect(json('/auth/api/v1/users', 'post')).toMatch(/"password":\{[^}]*"pattern":"\\\\S"/);
    const to = (
      operation('/api/v1/analytics/operations', 'get') as unknown as {
        parameters: { name: string; description: string }[];
      }
    ).parameters.find((p) => p.name === 'to');
    expect(to?.description).toMatch(/after from/);
  });
});

describe('answers at the edge', () => {
  it('API answers carry Cache-Control: no-store, errors included (issue 15.7)', async () => {
    const ok = await app.inject({ url: '/api/v1/cards', headers: bearer(ctx.tokens.VIEWER) });
    expect(ok.headers['cache-control']).toBe('no-store');
    const unauthorized = await app.inject({ url: '/api/v1/cards' });
    expect(unauthorized.headers['cache-control']).toBe('no-store');
  });

  it('permission is checked before the body: a VIEWER gets 403, not 400 (issue 15.7)', async () => {
    for (const [url, payload] of [
      ['/api/v1/rulesets', { version: 'x' }],
      ['/api/v1/accounts', {}],
      ['/auth/api/v1/users', { username: '' }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers: bearer(ctx.tokens.VIEWER), payload });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    const badId = await app.inject({
      method: 'POST',
      url: '/api/v1/cards/not-a-uuid/block',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(badId.statusCode).toBe(403);
  });

  it('an unknown method on a known path is a 405 with Allow and the envelope', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/v1/rulesets',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    const withParam = await app.inject({
      method: 'GET',
      url: '/api/v1/cards/00000000-0000-4000-8000-000000000000/block',
    });
    expect(withParam.statusCode).toBe(405);
    expect(withParam.headers.allow).toBe('POST');
    // An unknown path stays a 404.
    expect((await app.inject({ method: 'PUT', url: '/api/v1/nothing-here' })).statusCode).toBe(404);
  });

  it('a path parameter over the length limit is a 414 with the envelope', async () => {
    // Over app.ts's maxParamLength (2048: the longest identifier the contracts take, percent-encoded).
    const res = await app.inject({ url: `/pos/api/v1/cards/${'1'.repeat(3000)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({
      status: 414,
      code: 'URI_TOO_LONG',
      message: 'The request URL is too long',
    });
  });

  it('headers over the size limit are a 431 with the envelope, on a real socket', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/healthz', headers: { 'x-big': 'x'.repeat(20_000) } },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      status: 431,
      message: 'The request headers are too large',
      code: 'HEADERS_TOO_LARGE',
    });
  });
});
