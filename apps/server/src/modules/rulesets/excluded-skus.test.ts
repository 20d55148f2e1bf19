import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;

const ruleset = (
  await app.inject({
    method: 'POST',
    url: '/api/v1/rulesets',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { version: 1, config: { percent: 5 } },
  })
).json();
const base = `/api/v1/rulesets/${ruleset.id}`;
const missing = '/api/v1/rulesets/00000000-0000-4000-8000-000000000000';

const add = (payload: unknown, token = ctx.tokens.MANAGER, url = base) =>
  app.inject({
    method: 'POST',
    url: `${url}/excluded-skus`,
    headers: bearer(token),
    payload: payload as object,
  });
const list = (query = '', url = base) =>
  app.inject({ url: `${url}/excluded-skus${query}`, headers: bearer(ctx.tokens.VIEWER) });
const remove = (sku: string, token = ctx.tokens.MANAGER, url = base) =>
  app.inject({
    method: 'DELETE',
    url: `${url}/excluded-skus/${encodeURIComponent(sku)}`,
    headers: bearer(token),
  });

describe('SKU exclusions API', () => {
  it('adds a SKU with trimmed values; empty optional values become null', async () => {
    const res = await add({ sku: '  TOB-001 ', description: ' Cigarettes ', category: ' Tobacco ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sku: 'TOB-001', description: 'Cigarettes', category: 'Tobacco' });
    const bare = await add({ sku: 'GIFT/50', description: '', category: '   ' });
    expect(bare.json()).toMatchObject({ sku: 'GIFT/50', description: null, category: null });
    await add({ sku: 'ALC-7', description: 'Red wine', category: 'Alcohol' }, ctx.tokens.ADMIN);
    await add({ sku: 'TOB-002', description: 'Cigars', category: 'Tobacco' });
  });

  it('a duplicate SKU is a 409; a blank SKU a 400', async () => {
    const dup = await add({ sku: 'TOB-001' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'SKU_ALREADY_EXCLUDED',
      message: "SKU 'TOB-001' is already excluded in ruleset version 1",
    });
    for (const payload of [{ sku: '   ' }, {}, { sku: 'x'.repeat(129) }, { sku: '.' }, { sku: ' .. ' }]) {
      const res = await add(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect(JSON.stringify((await add({ sku: ' ' })).json())).toContain('SKU is required');
  });

  it('a SKU over 128 characters is answered as too long, not as missing', async () => {
    const res = await add({ sku: 'x'.repeat(129) });
    expect(res.statusCode).toBe(400);
    const body = JSON.stringify(res.json());
    expect(body).toContain('SKU must be at most 128 characters');
    expect(body).not.toContain('required');
  });

  it('lists by SKU, filters by category ("" = no category) and searches sku, description and category', async () => {
    const all = (await list()).json();
    expect(all.content.map((s: { sku: string }) => s.sku)).toEqual([
      'ALC-7',
      'GIFT/50',
      'TOB-001',
      'TOB-002',
    ]);
    expect(all.totalElements).toBe(4);
    const tobacco = (await list('?category=Tobacco')).json();
    expect(tobacco.content.map((s: { sku: string }) => s.sku)).toEqual(['TOB-001', 'TOB-002']);
    const none = (await list('?category=')).json();
    expect(none.content.map((s: { sku: string }) => s.sku)).toEqual(['GIFT/50']);
    expect(none.totalElements).toBe(1);
    expect((await list('?search=wine')).json().content.map((s: { sku: string }) => s.sku)).toEqual(['ALC-7']);
    expect((await list('?search=TOBAC')).json().totalElements).toBe(2);
    expect((await list('?search=gift')).json().totalElements).toBe(1);
    expect((await list('?search=%25')).json().totalElements).toBe(0);
    const paged = (await list('?size=3&page=1&sort=sku,desc')).json();
    expect(paged).toMatchObject({ page: 1, size: 3, totalPages: 2 });
    expect(paged.content.map((s: { sku: string }) => s.sku)).toEqual(['ALC-7']);
  });

  it('lists the distinct categories, sorted', async () => {
    const res = await app.inject({
      url: `${base}/excluded-skus-categories`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['Alcohol', 'Tobacco']);
  });

  it('removes a SKU (204), including one with a slash; an unknown SKU is a 404', async () => {
    expect((await remove('GIFT/50')).statusCode).toBe(204);
    expect((await list()).json().totalElements).toBe(3);
    const again = await remove('GIFT/50');
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('SKU_NOT_EXCLUDED');
  });

  it('an unknown ruleset is a 404 on every call; a malformed id a 400', async () => {
    for (const res of [
      await list('', missing),
      await add({ sku: 'A' }, ctx.tokens.MANAGER, missing),
      await remove('A', ctx.tokens.MANAGER, missing),
      await app.inject({ url: `${missing}/excluded-skus-categories`, headers: bearer(ctx.tokens.VIEWER) }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('RULESET_NOT_FOUND');
    }
    expect((await list('', '/api/v1/rulesets/nope')).statusCode).toBe(400);
  });

  it('a VIEWER may read but not add or remove', async () => {
    for (const res of [
      await add({ sku: 'V-1' }, ctx.tokens.VIEWER),
      await remove('TOB-001', ctx.tokens.VIEWER),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await list()).json().totalElements).toBe(3);
  });

  it('audits add and remove against the ruleset', async () => {
    await add({ sku: 'AUD-1', category: 'Audit' });
    await remove('AUD-1');
    const res = await app.inject({
      url: `/api/v1/audit?targetType=ruleset&targetId=${ruleset.id}&size=2`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    const [removed, added] = res.json().content;
    expect(added).toMatchObject({
      username: 'manager',
      message: "Excluded SKU 'AUD-1' from ruleset version 1",
      source: null,
      dest: { rulesetVersion: 1, sku: 'AUD-1', category: 'Audit', description: null },
    });
    expect(removed).toMatchObject({
      message: "Removed SKU 'AUD-1' from the exclusions of ruleset version 1",
      source: { sku: 'AUD-1', category: 'Audit' },
      dest: null,
    });
  });

  it('any SKU a till may send (up to 128 characters) can be excluded and removed again', async () => {
    const sku = `GTIN-${'9'.repeat(123)}`;
    const res = await add({ sku });
    expect(res.statusCode, res.body).toBe(201);
    const removed = await remove(sku);
    expect(removed.statusCode, removed.body).toBe(204);
  });

  it("refuses '.' and '..', which no browser can name in a path to remove them", async () => {
    for (const sku of ['.', '..']) {
      const res = await add({ sku });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain("SKU cannot be '.' or '..'");
    }
    expect((await add({ sku: '...' })).statusCode).toBe(201);
    expect((await remove('...')).statusCode).toBe(204);
  });
});
