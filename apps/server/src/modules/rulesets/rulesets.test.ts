import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;

const create = (payload: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: '/api/v1/rulesets', headers: bearer(token), payload: payload as object });
const list = (query = '', token = ctx.tokens.VIEWER) =>
  app.inject({ url: `/api/v1/rulesets${query}`, headers: bearer(token) });

const past = new Date(Date.now() - 86_400_000).toISOString();
const longAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
const future = new Date(Date.now() + 86_400_000).toISOString();

describe('rulesets API', () => {
  it('creates a ruleset with the signed-in user as creator and a derived status', async () => {
    const res = await create({ version: 10, config: { percent: 5.25 }, activeFrom: past });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      version: 10,
      status: 'Active',
      config: { percent: 5.25 },
      activeFrom: past,
      createdBy: 'manager',
      inForce: true,
    });
    expect(res.json().id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json().createdAt).toMatch(/Z$/);
  });

  it('derives Draft (no activeFrom) and Scheduled (future); only one ruleset is in force', async () => {
    const draft = await create({ version: 20, config: { percent: 0 }, activeFrom: '' });
    expect(draft.json()).toMatchObject({ status: 'Draft', activeFrom: null, inForce: false });
    const scheduled = await create({ version: 30, config: { percent: 7 }, activeFrom: future });
    expect(scheduled.json()).toMatchObject({ status: 'Scheduled', inForce: false });
    const older = await create({ version: 5, config: { percent: 1 }, activeFrom: longAgo }, ctx.tokens.ADMIN);
    expect(older.json()).toMatchObject({ status: 'Active', inForce: false, createdBy: 'admin' });
    const inForce = (await list('?size=200')).json().content.filter((r: { inForce: boolean }) => r.inForce);
    expect(inForce.map((r: { version: number }) => r.version)).toEqual([10]);
  });

  it('generates the version from the current time in seconds when absent, never clashing', async () => {
    const before = Math.floor(Date.now() / 1000);
    const a = await create({ config: { percent: 2 } });
    const b = await create({ version: null, config: { percent: 3 } });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().version).toBeGreaterThanOrEqual(before);
    expect(a.json().version).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    expect(b.json().version).not.toBe(a.json().version);
  });

  it('a version that exists is a 409', async () => {
    const res = await create({ version: 10, config: { percent: 1 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'RULESET_VERSION_TAKEN',
      message: 'A ruleset with version 10 already exists',
    });
  });

  it.each([
    [{ version: 11, config: { percent: 100.01 } }, 'Accrual Percentage must be between 0 and 100'],
    [{ version: 11, config: { percent: -1 } }, 'Accrual Percentage must be between 0 and 100'],
    [{ version: 11, config: { percent: 1.234 } }, 'Accrual Percentage may have at most 2 decimals'],
    [{ version: 11 }, 'config'],
    [{ version: 0, config: { percent: 1 } }, 'version'],
    [{ version: 1.5, config: { percent: 1 } }, 'Version must be a whole number'],
    [{ version: 11, config: { percent: 1 }, activeFrom: 'tomorrow' }, 'ISO-8601'],
    [{ version: 11, config: { percent: 1 }, activeFrom: '2025-01-01T10:00:00' }, 'ISO-8601'],
  ])('rejects %j with a 400', async (payload, message) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('lists newest version first, filters by status in SQL and searches the version', async () => {
    const all = (await list()).json();
    const versions = all.content.map((r: { version: number }) => r.version);
    expect(versions).toEqual([...versions].sort((x, y) => y - x));
    expect(all.totalElements).toBe(6);

    const drafts = (await list('?status=Draft')).json();
    expect(drafts.content.map((r: { status: string }) => r.status)).toEqual(['Draft', 'Draft', 'Draft']);
    expect(drafts.content.map((r: { version: number }) => r.version)).toContain(20);
    expect(drafts.totalElements).toBe(3);
    const scheduled = (await list('?status=scheduled')).json();
    expect(scheduled.content.map((r: { version: number }) => r.version)).toEqual([30]);
    const active = (await list('?status=Active&sort=version,asc')).json();
    expect(active.content.map((r: { status: string }) => r.status)).toEqual(
      Array(active.totalElements).fill('Active'),
    );
    expect(active.content[0].version).toBe(5);

    const search = (await list('?search=3')).json();
    expect(search.content.every((r: { version: number }) => String(r.version).includes('3'))).toBe(true);
    expect(search.content.map((r: { version: number }) => r.version)).toContain(30);

    const paged = (await list('?size=2&page=1')).json();
    expect(paged).toMatchObject({ page: 1, size: 2, totalElements: 6, totalPages: 3 });
    expect(paged.content).toHaveLength(2);
  });

  it('rejects an unknown status or sort field', async () => {
    for (const query of ['?status=Paused', '?sort=createdBy,asc']) {
      const res = await list(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('a VIEWER may read but not create', async () => {
    expect((await list('', ctx.tokens.VIEWER)).statusCode).toBe(200);
    const res = await create({ version: 99, config: { percent: 1 } }, ctx.tokens.VIEWER);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it('audits a creation with the ruleset as dest', async () => {
    const made = (await create({ version: 40, config: { percent: 4.5 } })).json();
    const res = await app.inject({
      url: `/api/v1/audit?targetType=ruleset&targetId=${made.id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    const [entry] = res.json().content;
    expect(entry).toMatchObject({
      username: 'manager',
      message: 'Created ruleset version 40 (4.5%, Draft)',
      source: null,
      dest: { id: made.id, version: 40, config: { percent: 4.5 }, status: 'Draft' },
    });
  });
});
