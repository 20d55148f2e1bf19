import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/helper';
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
