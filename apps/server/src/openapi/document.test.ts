import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';
import { createCard, createPosKey } from '../modules/pos/pos.fixtures';
import { openApiPath } from './document';

const ctx = await createTestContext();

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
type Document = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
};

const bodyOf = (document: Document, path: string, method: string) =>
  document.paths[path]![method]!.requestBody!.content['application/json']!.schema;

describe('openapi.json (checked in at the repository root)', () => {
  it('is the document the app serves: run `npm run openapi` after changing a route or a contract', async () => {
    const live = (await ctx.app.inject({ url: '/openapi.json' })).json();
    expect(existsSync(openApiPath), 'openapi.json is missing: run `npm run openapi`').toBe(true);
    const checkedIn = JSON.parse(readFileSync(openApiPath, 'utf8'));
    expect(live, 'openapi.json is stale: run `npm run openapi` and commit it').toEqual(checkedIn);
  });

  it('states the bounds the server enforces', () => {
    const document = JSON.parse(readFileSync(openApiPath, 'utf8')) as Document;
    const accrual = bodyOf(document, '/pos/api/v1/accruals', 'post');
    const receipt = accrual.properties!.receipt!.properties!;
    const line = (receipt.items!.items as Schema).properties!;
    expect(line.quantity).toMatchObject({ exclusiveMinimum: true, minimum: 0, maximum: 1_000_000 });
    expect(line.price).toMatchObject({ minimum: 0, maximum: 1_000_000_000, multipleOf: 0.01 });
    expect(receipt.items!.description).toContain('Σ quantity × price');
    // At least a cent (a float-safe multipleOf alone takes 1e-18, which rounds to 0.00).
    expect(bodyOf(document, '/pos/api/v1/holds', 'post').properties!.points).toMatchObject({
      minimum: 0.01,
      multipleOf: 0.01,
    });
    expect(
      bodyOf(document, '/api/v1/admin/operations/manual-accrual', 'post').properties!.points,
    ).toMatchObject({ minimum: 0.01, multipleOf: 0.01, maximum: 1_000_000_000 });
    expect(bodyOf(document, '/api/v1/pos-keys', 'post').properties!.apiKey).toMatchObject({ minLength: 32 });
    expect(bodyOf(document, '/auth/api/v1/login', 'post').properties!.password).toMatchObject({
      minLength: 1,
      pattern: '\\S',
    });
    expect(bodyOf(document, '/auth/api/v1/users', 'post').properties!.password).toMatchObject({
      minLength: 8,
      pattern: '\\S',
    });
  });
});

interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: Schema;
}
interface Response {
  description: string;
  headers?: Record<string, { description?: string; schema: Schema; required?: boolean }>;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId?: string;
  description?: string;
  'x-roles'?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
}
type Served = { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> };

// What the app serves now (the checked-in copy is regenerated from it by `npm run openapi`).
const served = (await ctx.app.inject({ url: '/openapi.json' })).json() as Served;
const operations = Object.entries(served.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, op]) => ({ path, method, op })),
);
const operation = (method: string, path: string) => served.paths[path]![method]!;
const parameter = (op: Operation, name: string) => op.parameters!.find((p) => p.name === name)!;
const jsonBody = (method: string, path: string) =>
  operation(method, path).requestBody!.content['application/json']!.schema;

describe('the served document: who may call what', () => {
  it('names the roles of every operation that can answer 403, in x-roles and in its description', () => {
    const checked = operations.filter(({ op }) => op.responses['403']);
    expect(checked.length).toBeGreaterThan(40);
    for (const { path, method, op } of checked) {
      const roles = op['x-roles'];
      expect(roles, `${method} ${path}`).toEqual(expect.arrayContaining([expect.any(String)]));
      for (const role of roles!) expect(['ADMIN', 'MANAGER', 'VIEWER']).toContain(role);
      expect(op.description, `${method} ${path}`).toContain(`Roles: ${roles!.join(', ')}.`);
    }
    for (const { path, method, op } of operations.filter(({ op }) => !op.responses['403'])) {
      expect(op['x-roles'], `${method} ${path}`).toBeUndefined();
    }
    expect(operation('get', '/api/v1/webhooks')['x-roles']).toEqual(['ADMIN']);
    expect(operation('post', '/api/v1/accounts')['x-roles']).toEqual(['ADMIN', 'MANAGER']);
  });

  it('the roles named are the roles the server lets through (the role check runs before validation)', async () => {
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const checked = operations.filter(({ op }) => op['x-roles']);
    expect(checked.length).toBeGreaterThan(40);
    for (const { path, method, op } of checked) {
      // Nothing to act on: an unknown id, no body. An allowed role meets a 400 or 404, never a 403.
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'sku' ? 'NO-SUCH-SKU' : unknownId,
      );
      for (const role of ['ADMIN', 'MANAGER', 'VIEWER'] as const) {
        const res = await ctx.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: bearer(ctx.tokens[role]),
        });
        const allowed = op['x-roles']!.includes(role);
        const context = `${method} ${path} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (allowed) expect(res.statusCode, context).not.toBe(403);
        else expect(res.json(), context).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      }
    }
  });
});

describe('the served document: response headers', () => {
  const header = (method: string, path: string, status: string, name: string) =>
    operation(method, path).responses[status]!.headers?.[name];

  it('Idempotent-Replayed on the answers of the idempotent writes, and only there', () => {
    const idempotent = [
      ['post', '/pos/api/v1/accruals', '201'],
      ['post', '/pos/api/v1/holds', '201'],
      ['post', '/pos/api/v1/holds/{holdId}/capture', '200'],
      ['post', '/pos/api/v1/holds/{holdId}/release', '200'],
      ['post', '/pos/api/v1/returns', '201'],
      ['post', '/api/v1/accounts', '201'],
      ['post', '/api/v1/rulesets', '201'],
      ['post', '/api/v1/cards/issue/{accountId}', '201'],
      ['post', '/api/v1/pos-keys', '201'],
      ['post', '/api/v1/webhooks', '201'],
      ['post', '/api/v1/admin/operations/manual-accrual', '201'],
      ['post', '/api/v1/imports/accruals', '200'],
    ] as const;
    for (const [method, path, status] of idempotent) {
      expect(header(method, path, status, 'Idempotent-Replayed'), `${method} ${path}`).toMatchObject({
        schema: { type: 'string', enum: ['true'] },
      });
    }
    const marked = operations.filter(({ op }) =>
      Object.values(op.responses).some((r) => r.headers?.['Idempotent-Replayed']),
    );
    expect(marked).toHaveLength(idempotent.length);
    // A bulk credit's re-post answers 200 like the first: its description says the header is the difference.
    expect(operation('post', '/api/v1/imports/accruals').description).toMatch(
      /answers 200 with the first answer .*Idempotent-Replayed: true; only that header says that nothing was booked/,
    );
  });

  it('Retry-After on every 503 and 429, Content-Disposition on every CSV 200, the Bearer challenge on 401', () => {
    let csv = 0;
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const context = `${method} ${path} ${status}`;
        if (status === '503' || status === '429') {
          expect(response.headers?.['Retry-After'], context).toMatchObject({ schema: { type: 'integer' } });
        }
        if (status === '200' && response.content?.['text/csv']) {
          csv++;
          expect(response.headers?.['Content-Disposition'], context).toBeDefined();
        }
        // The Admin API's 401s (a session token missing or refused); not a sign-in's wrong password.
        if (status === '401' && op.security?.some((scheme) => 'bearerAuth' in scheme)) {
          expect(response.headers?.['WWW-Authenticate'], context).toMatchObject({
            schema: { type: 'string' },
          });
        }
      }
    }
    expect(csv).toBeGreaterThan(5);
    expect(header('post', '/auth/api/v1/login', '429', 'Retry-After')).toBeDefined();
  });

  it('a list that answers JSON or CSV says how to ask for the CSV', () => {
    for (const { path, method, op } of operations) {
      const ok = op.responses['200'];
      if (!ok?.content?.['text/csv'] || !ok.content['application/json']) continue;
      expect(op.description, `${method} ${path}`).toContain('format=csv');
    }
  });
});

describe('the served document: for client generators', () => {
  it('gives every operation a unique operationId from its method and path', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation('get', '/api/v1/accounts').operationId).toBe('getAccounts');
    expect(operation('post', '/api/v1/cards/{id}/block').operationId).toBe('postCardsIdBlock');
    expect(operation('post', '/pos/api/v1/accruals').operationId).toBe('postPosAccruals');
    expect(operation('post', '/auth/api/v1/login').operationId).toBe('postAuthLogin');
  });

  it('has a server, and describes each response by its status text', () => {
    expect(served.servers).toEqual([{ url: '/' }]);
    const texts: Record<string, string> = {
      '200': 'OK',
      '201': 'Created',
      '204': 'No Content',
      '400': 'Bad Request',
    };
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
        if (texts[status]) expect(response.description, `${method} ${path} ${status}`).toBe(texts[status]);
      }
    }
  });

  it('says nullable only beside a type (OpenAPI 3.0)', () => {
    const offenders: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Schema;
      if (schema.nullable === true && schema.type === undefined) offenders.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(served.paths, '#/paths');
    expect(offenders).toEqual([]);
  });
});

const ajv = new Ajv({ strict: false });
/** Whether a value is valid by the document's schema (those checked here use no OpenAPI-only keywords). */
const accepts = (schema: Schema, value: unknown) => ajv.validate(schema, value);

describe('the served document: the input rules the server enforces', () => {
  it('ranges: points-flow, analytics and backtest state their longest range', () => {
    const flow = operation('get', '/api/v1/reports/points-flow');
    expect(parameter(flow, 'to').description).toContain(
      'at most 400 days with groupBy=day and 3660 days with groupBy=month',
    );
    for (const path of ['/api/v1/analytics/operations', '/api/v1/analytics/cards']) {
      const op = operation('get', path);
      expect(parameter(op, 'to').description).toContain('at most 400 days');
      expect(parameter(op, 'groupBy').description).toContain('at most 31 days');
    }
    const backtest = jsonBody('post', '/api/v1/rulesets/{id}/backtest');
    expect(backtest.properties!.to!.description).toContain('at most 366 days');
  });

  it('rules: reserved and repeated names, a day twice', () => {
    const body = jsonBody('post', '/api/v1/rulesets');
    const rules = body.properties!.config!.properties!.rules!;
    const rule = (rules.items as Schema).properties!;
    expect(accepts(rule.name!, 'base')).toBe(false);
    expect(accepts(rule.name!, 'cap')).toBe(false);
    expect(accepts(rule.name!, 'Weekend')).toBe(true);
    expect(rule.name!.description).toContain('base, excluded, minSpend, cap');
    expect(rules.description).toContain('unique');
    expect(accepts(rule.daysOfWeek!, [1, 1])).toBe(false);
    expect(accepts(rule.daysOfWeek!, [1, 7])).toBe(true);
  });

  it('webhooks: an http(s) URL without credentials; a change names at least one field', () => {
    for (const [method, path] of [
      ['post', '/api/v1/webhooks'],
      ['patch', '/api/v1/webhooks/{id}'],
    ] as const) {
      const url = jsonBody(method, path).properties!.url!;
      for (const good of ['https://hooks.example.com/in', 'http://10.0.0.1:8080/x?y=1', 'HTTPS://a.b']) {
        expect(accepts(url, good), good).toBe(true);
      }
      for (const bad of ['ftp://a.b/x', 'https://user:pw@a.b/', 'https://user@a.b', 'a.b/x', 'https://']) {
        expect(accepts(url, bad), bad).toBe(false);
      }
    }
    expect(accepts(jsonBody('patch', '/api/v1/webhooks/{id}'), {})).toBe(false);
    expect(accepts(jsonBody('patch', '/api/v1/webhooks/{id}'), { status: 'disabled' })).toBe(true);
  });

  it('bulk block: ids distinct', () => {
    const ids = jsonBody('post', '/api/v1/cards/block').properties!.ids!;
    const id = '5f0c8a53-6c2b-4bde-9d3c-2a7f1e0b9c11';
    expect(accepts(ids, [id, id])).toBe(false);
    expect(accepts(ids, [id])).toBe(true);
  });
});

describe("'.' and '..' are not ids: a path cannot carry them (URL normalisation removes the segment)", () => {
  it('a POS operationId: 400 VALIDATION_ERROR naming the field, and the document says so', async () => {
    const pos = await createPosKey(ctx, { name: 'Dot till' });
    const card = await createCard(ctx.database.db, { balance: 0 });
    for (const operationId of ['.', '..']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/pos/api/v1/accruals',
        headers: { 'x-api-key': pos.apiKey },
        payload: {
          operationId,
          cardNumber: card.number,
          receipt: { receiptId: 'R-dot', items: [{ sku: 'A', quantity: 1, price: 10 }] },
        },
      });
      expect(res.statusCode, operationId).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'operationId' })],
      });
    }
    const schema = jsonBody('post', '/pos/api/v1/accruals').properties!.operationId!;
    expect(accepts(schema, '..')).toBe(false);
    expect(accepts(schema, 'op-1.2')).toBe(true);
  });

  it('a client ID: 400 VALIDATION_ERROR naming the field, and the document says so', async () => {
    for (const clientId of ['.', '..', ' .. ']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        headers: bearer(ctx.tokens.MANAGER),
        payload: { clientId },
      });
      expect(res.statusCode, clientId).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'clientId' })],
      });
    }
    const schema = jsonBody('post', '/api/v1/accounts').properties!.clientId!;
    expect(accepts(schema, '..')).toBe(false);
    expect(accepts(schema, 'C-1.5')).toBe(true);
  });
});
