import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { createPosKey } from '../pos/pos.fixtures';
import { createKeyCrypto } from './key-crypto';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

const KEY = 'Abcdefghijklmnopqrstuvwxyz012345';
const create = (token: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/v1/pos-keys', headers: bearer(token), payload });
const list = (query = '', token = ctx.tokens.VIEWER) =>
  app.inject({ url: `/api/v1/pos-keys${query}`, headers: bearer(token) });
const patch = (id: string, status: string, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'PATCH', url: `/api/v1/pos-keys/${id}`, headers: bearer(token), payload: { status } });
const reveal = (id: string, token = ctx.tokens.ADMIN) =>
  app.inject({ url: `/api/v1/pos-keys/${id}/reveal`, headers: bearer(token) });

let firstId: string;

describe('POS keys admin API', () => {
  it('a MANAGER creates a key: trimmed, active by default, never echoed back', async () => {
    const res = await create(ctx.tokens.MANAGER, {
      name: '  Front desk ',
      address: ' 1 Main St ',
      apiKey: `  ${KEY}  `,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Front desk',
      address: '1 Main St',
      status: 'active',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    firstId = body.id;
    // The trimmed key works at the till.
    const use = await app.inject({
      url: '/pos/api/v1/cards/0000000000000000',
      headers: { 'x-api-key': KEY },
    });
    expect(use.json().code).toBe('CARD_NOT_FOUND');
  });

  it('stores only a keyed hash and an AES-GCM ciphertext: the database holds no key', async () => {
    const row = await db
      .selectFrom('pos_keys')
      .selectAll()
      .where('id', '=', firstId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.key_cipher).toMatch(/^v1:/);
    const crypto = createKeyCrypto('0'.repeat(64));
    expect(crypto.decrypt(row.key_cipher, row.id)).toBe(KEY);
    // Bound to its row: moved to another row it does not decrypt.
    expect(() => crypto.decrypt(row.key_cipher, '00000000-0000-4000-8000-000000000000')).toThrow();
    // Another secret neither finds nor decrypts it.
    const stranger = createKeyCrypto('1'.repeat(64));
    expect(stranger.hash(KEY)).not.toBe(row.key_hash);
    expect(() => stranger.decrypt(row.key_cipher, row.id)).toThrow();
  });

  // Issue 15.7 changed this answer: it was a 409 POS_KEY_TAKEN, which confirmed that a key exists.
  it('refuses a duplicate key with a generic 400 that does not confirm the key exists, concurrently too', async () => {
    const dup = await create(ctx.tokens.ADMIN, { name: 'Copy', apiKey: KEY });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'apiKey', message: 'This API key cannot be used. Generate a new one.' }],
    });
    expect(JSON.stringify(dup.json())).not.toMatch(/in use|exists|taken/i);
    const racer = 'R'.repeat(40);
    const results = await Promise.all(
      [1, 2, 3].map((i) => create(ctx.tokens.MANAGER, { name: `Racer ${i}`, apiKey: racer })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
  });

  it.each([
    [{ name: '', apiKey: KEY }, 'Name and API Key are required'],
    [{ name: 'x', apiKey: '   ' }, 'Name and API Key are required'],
    // Shows nothing, though not white space to trim().
    [{ name: '\u200b\u2060', apiKey: KEY }, 'Name and API Key are required'],
    [{ name: 'Till\u0007\u001b[31m red', apiKey: KEY }, 'Name must not contain tabs, line breaks'],
    [{ name: 'Till', address: 'Main St\n1', apiKey: KEY }, 'Address must not contain tabs, line breaks'],
    [{ name: 'x' }, 'apiKey'],
    [{ name: 'x', apiKey: 'short-key' }, 'API key must be at least 32 characters'],
    [{ name: 'x', apiKey: `${'a'.repeat(20)} ${'b'.repeat(20)}` }, 'printable ASCII'],
    [{ name: 'x', apiKey: KEY.replace('A', 'Q'), status: 'paused' }, 'status'],
  ])('rejects %j with 400', async (payload, message) => {
    const res = await create(ctx.tokens.MANAGER, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('lists with paging (default size 20), search over name and address, status filter and sorting', async () => {
    await create(ctx.tokens.MANAGER, {
      name: 'Airport kiosk',
      address: 'Terminal 2',
      apiKey: 'K'.repeat(32),
    });
    await create(ctx.tokens.MANAGER, {
      name: 'Mall',
      address: 'Airport road 5',
      apiKey: 'M'.repeat(32),
      status: 'inactive',
    });
    const all = (await list()).json();
    expect(all).toMatchObject({ page: 0, size: 20 });
    expect(all.totalElements).toBe(4);
    expect(JSON.stringify(all)).not.toMatch(/apiKey|key_hash|key_cipher|KKKK/);
    const airport = (await list('?search=AIRPORT&sort=name,asc')).json();
    expect(airport.content.map((k: { name: string }) => k.name)).toEqual(['Airport kiosk', 'Mall']);
    const inactive = (await list('?status=inactive')).json();
    expect(inactive.content.map((k: { name: string }) => k.name)).toEqual(['Mall']);
    const paged = (await list('?size=1&page=1&sort=createdAt,asc')).json();
    expect(paged).toMatchObject({ totalElements: 4, totalPages: 4, page: 1, size: 1 });
    for (const bad of ['?sort=apiKey,asc', '?status=gone', '?size=201']) {
      expect((await list(bad)).statusCode).toBe(400);
    }
  });

  it('activates and deactivates (MANAGER+), 404 POS_KEY_NOT_FOUND for an unknown key', async () => {
    const off = await patch(firstId, 'inactive');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: firstId, status: 'inactive' });
    const on = await patch(firstId, 'active', ctx.tokens.ADMIN);
    expect(on.json().status).toBe('active');
    const missing = await patch('00000000-0000-4000-8000-000000000000', 'inactive');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('POS_KEY_NOT_FOUND');
    expect((await patch('nope', 'inactive')).statusCode).toBe(400);
  });

  it('reveals the key to an ADMIN only', async () => {
    const res = await reveal(firstId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: KEY });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await reveal('00000000-0000-4000-8000-000000000000')).json().code).toBe('POS_KEY_NOT_FOUND');
  });

  it('enforces roles: VIEWER reads only; MANAGER may not reveal', async () => {
    const viewer = ctx.tokens.VIEWER;
    expect((await list('', viewer)).statusCode).toBe(200);
    for (const res of [
      await create(viewer, { name: 'v', apiKey: 'V'.repeat(32) }),
      await patch(firstId, 'inactive', viewer),
      await reveal(firstId, viewer),
      await reveal(firstId, ctx.tokens.MANAGER),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await app.inject({ url: '/api/v1/pos-keys' })).statusCode).toBe(401);
  });

  it("a key reactivated by its id in capitals shows in the key's audit trail like any other change", async () => {
    const key = await createPosKey(ctx, { name: 'Back office' });
    for (const status of ['inactive', 'active'] as const) {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/v1/pos-keys/${key.id.toUpperCase()}`,
        headers: bearer(ctx.tokens.MANAGER),
        payload: { status },
      });
      expect(res.statusCode).toBe(200);
    }
    const trail = await app.inject({
      url: `/api/v1/audit?targetType=pos_key&targetId=${key.id}&sort=executedAt,asc`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(trail.json().content.map((e: { message: string }) => e.message)).toEqual([
      "Created POS key 'Back office'",
      "Deactivated POS key 'Back office'",
      "Activated POS key 'Back office'",
    ]);
  });

  it('audits create, deactivate, activate and reveal with before/after, and no key material', async () => {
    const res = await app.inject({
      url: `/api/v1/audit?targetType=pos_key&targetId=${firstId}&sort=executedAt,asc`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    const entries = res.json().content;
    expect(entries.map((e: { message: string }) => e.message)).toEqual([
      "Created POS key 'Front desk'",
      "Deactivated POS key 'Front desk'",
      "Activated POS key 'Front desk'",
      "Revealed the API key of POS key 'Front desk'",
    ]);
    expect(entries[0]).toMatchObject({
      username: 'manager',
      source: null,
      dest: { name: 'Front desk', status: 'active' },
    });
    expect(entries[1]).toMatchObject({
      username: 'manager',
      source: { status: 'active' },
      dest: { status: 'inactive' },
    });
    expect(entries[2]).toMatchObject({
      username: 'admin',
      source: { status: 'inactive' },
      dest: { status: 'active' },
    });
    expect(entries[3]).toMatchObject({ username: 'admin', targetType: 'pos_key' });
    const row = await db
      .selectFrom('pos_keys')
      .selectAll()
      .where('id', '=', firstId)
      .executeTakeFirstOrThrow();
    const everything = JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [KEY, row.key_hash, row.key_cipher, 'K'.repeat(32), 'R'.repeat(40)]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/apiKey|key_hash|key_cipher/);
  });
});

describe('HEAD is safe (RFC 9110 9.2.1)', () => {
  it('a HEAD of reveal reveals nothing and writes no reveal to the audit log', async () => {
    const created = await create(ctx.tokens.MANAGER, { name: 'Head check', apiKey: 'H'.repeat(32) });
    const id = created.json().id;
    const head = await app.inject({
      method: 'HEAD',
      url: `/api/v1/pos-keys/${id}/reveal`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.body).toBe('');
    // As GET answers: an unknown key is a 404, a MANAGER is refused.
    const unknown = await app.inject({
      method: 'HEAD',
      url: `/api/v1/pos-keys/${randomUUID()}/reveal`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(unknown.statusCode).toBe(404);
    const manager = await app.inject({
      method: 'HEAD',
      url: `/api/v1/pos-keys/${id}/reveal`,
      headers: bearer(ctx.tokens.MANAGER),
    });
    expect(manager.statusCode).toBe(403);
    const reveals = () =>
      db
        .selectFrom('audit_log')
        .select('message')
        .where('target_id', '=', id)
        .where('message', 'like', 'Revealed%')
        .execute();
    expect(await reveals()).toEqual([]);
    expect((await reveal(id)).json()).toEqual({ key: 'H'.repeat(32) });
    expect(await reveals()).toHaveLength(1);
  });
});
