import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';
import { createPosKey, failedOperations } from '../modules/pos/pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;

const json = { 'content-type': 'application/json' };

function expectFieldError(res: { statusCode: number; json(): unknown }, field: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { status: number; code: string; details: { field: string }[] };
  expect(body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  expect(body.details.map((d) => d.field)).toContain(field);
}

describe('text PostgreSQL cannot store is refused at the edge, on every route', () => {
  it('NUL in a body field is a 400 naming the field (issue 14: it was a 500)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { clientId: 'CL\u0000-1' },
    });
    expectFieldError(res, 'clientId');
  });

  it('NUL in the sign-in form, before any database work', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      payload: { username: 'admin\u0000', password: 'x' },
    });
    expectFieldError(res, 'username');
  });

  it('NUL in nested arrays, in object keys, in the query and in path parameters', async () => {
    const nested = await app.inject({
      method: 'POST',
      url: '/api/v1/rulesets',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { config: { percent: 5, 'x\u0000': 1 } },
    });
    expectFieldError(nested, 'config.x\u0000');

    const query = await app.inject({
      url: '/api/v1/accounts?search=a%00b',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expectFieldError(query, 'querystring.search');

    const params = await app.inject({
      method: 'DELETE',
      url: '/api/v1/rulesets/00000000-0000-4000-8000-000000000000/excluded-skus/SKU%00',
      headers: bearer(ctx.tokens.MANAGER),
    });
    expectFieldError(params, 'params.sku');
  });

  it('lone UTF-16 surrogates are refused (they have no UTF-8 form)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: '{"clientId":"CL-\\ud800"}',
    });
    expectFieldError(res, 'clientId');
    // A proper pair (an emoji) is fine.
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: '{"clientId":"CL-\\ud83d\\ude00"}',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().clientId).toBe('CL-😀');
  });

  it('on the POS API the key is checked first: an unknown key is a 401 whatever the body holds', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/pos/api/v1/accruals/preview',
      headers: { 'x-api-key': 'nope-nope-nope-nope-nope-nope-nope-nope' },
      payload: { cardNumber: '1\u0000' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('JSON bodies are decoded strictly (issue 15.7)', () => {
  it('invalid UTF-8 is a 400, not silently replaced', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"clientId":"CL-'),
      Buffer.from([0xc3, 0x28]), // an invalid two-byte sequence
      Buffer.from('"}'),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: bytes,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/UTF-8/),
    });
    const list = await app.inject({ url: '/api/v1/accounts?search=CL-', headers: bearer(ctx.tokens.VIEWER) });
    expect(list.json().content.map((a: { clientId: string }) => a.clientId)).not.toContain('CL-\ufffd(');
  });

  it('valid UTF-8, malformed JSON and an empty body keep their answers', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: Buffer.from('{"clientId":"CL-Grüße"}'),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().clientId).toBe('CL-Grüße');
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: '{"clientId":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'Malformed JSON body' });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: '{"clientId":"x","__proto__":{"a":1}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('a JSON body nested deeper than any contract is a 400, not a 500', () => {
  // 20 kB of brackets: far under the body limit, but deep enough that walking it recursively overflowed
  // the stack (a 500 and an error log per request, before sign-in).
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('on the sign-in form, on an admin route and on a POS write (recorded as refused)', async () => {
    const pos = await createPosKey(ctx);
    const requests = [
      {
        url: '/auth/api/v1/login',
        headers: json,
        payload: `{"username":"admin","password":"x","n":${deep(10_000)}}`,
      },
      {
        url: '/api/v1/accounts',
        headers: { ...bearer(ctx.tokens.MANAGER), ...json },
        payload: `{"clientId":"CL-deep","n":${deep(10_000)}}`,
      },
      {
        url: '/pos/api/v1/holds',
        headers: { 'x-api-key': pos.apiKey, ...json },
        payload: `{"operationId":"op-deep","cardNumber":"4000","points":1,"n":${deep(10_000)}}`,
      },
    ];
    for (const request of requests) {
      const res = await app.inject({ method: 'POST', ...request });
      expect(res.statusCode, request.url).toBe(400);
      expect(res.json()).toMatchObject({
        status: 400,
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/nested/),
      });
    }
    const failed = await failedOperations(ctx.database.db, 'BAD_REQUEST');
    expect(failed.filter((f) => f.pos_id === pos.id)).toHaveLength(1);
  });

  it('the nesting of real requests is far inside the limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), ...json },
      payload: `{"clientId":"CL-nested","n":${deep(30)}}`,
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('a refused POS write with text PostgreSQL cannot store', () => {
  it('is a 400 and is still recorded as a failed operation, without the unstorable text', async () => {
    const pos = await createPosKey(ctx);
    const res = await app.inject({
      method: 'POST',
      url: '/pos/api/v1/holds',
      headers: { 'x-api-key': pos.apiKey },
      payload: { operationId: 'op-\u0000-1', cardNumber: '4000\u0000', points: 5 },
    });
    expectFieldError(res, 'operationId');
    const failed = await failedOperations(ctx.database.db, 'VALIDATION_ERROR');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ pos_id: pos.id, card_number: null, operation_id: null });
  });
});
