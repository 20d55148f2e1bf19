import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestContext, type TestContext } from '../../../test/helper';
import { serverUrl, urlOfDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { createPosKeyCache } from '../pos-keys/pos-key-cache';
import { createCard, createPosKey } from './pos.fixtures';

const identity = { id: 'k1', name: 'Till 1', stale: true };

describe('the POS key cache', () => {
  it('remembers a found key, answers it without the lastUsedAt flag, and forgets it by id', () => {
    const cache = createPosKeyCache(60_000, { usable: true });
    cache.remember('h1', identity, cache.generation());
    expect(cache.lookup('h1')).toEqual({ id: 'k1', name: 'Till 1', stale: false });
    cache.forget('k2');
    expect(cache.lookup('h1')).toBeDefined();
    cache.forget('k1');
    expect(cache.lookup('h1')).toBeUndefined();
  });

  it('does not remember a read that a change overtook (found active, then deactivated, then answered)', () => {
    const cache = createPosKeyCache(60_000, { usable: true });
    const generation = cache.generation();
    cache.forget('k1');
    cache.remember('h1', identity, generation);
    expect(cache.lookup('h1')).toBeUndefined();
  });

  it('is off with a TTL of 0 and while not usable', () => {
    const off = createPosKeyCache(0, { usable: true });
    off.remember('h1', identity, off.generation());
    expect(off.lookup('h1')).toBeUndefined();
    const waiting = createPosKeyCache(60_000, { usable: false });
    waiting.remember('h1', identity, waiting.generation());
    expect(waiting.lookup('h1')).toBeUndefined();
    waiting.setUsable(true);
    waiting.remember('h1', identity, waiting.generation());
    expect(waiting.lookup('h1')).toBeDefined();
    waiting.setUsable(false);
    expect(waiting.lookup('h1')).toBeUndefined();
  });
});

const base = serverUrl();

/** Polls (bounded) until `check` holds; the last value either way. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 100 && !check(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

// At the top, as every test file makes its context (its afterAll verifies the ledger and drops the database).
const ctx = (base ? await createTestContext({ HOLD_SWEEP_INTERVAL_MS: '0' }) : undefined) as TestContext;

describe.skipIf(!base)('two servers on one PostgreSQL database', () => {
  let serverA: App;
  let serverB: App;
  let cardNumber: string;
  beforeAll(async () => {
    const { name } = (await sql<{ name: string }>`select current_database() as name`.execute(ctx.database.db))
      .rows[0]!;
    const env = {
      DATABASE_URL: urlOfDatabase(base!, name),
      POS_KEY_CACHE_MS: '600000',
      HOLD_SWEEP_INTERVAL_MS: '0',
    };
    serverA = await buildTestApp(ctx.database, env);
    serverB = await buildTestApp(ctx.database, env);
    cardNumber = (await createCard(ctx.database.db)).number;
  });
  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
  });
  const cardOn = (app: App, apiKey: string) =>
    app.inject({ method: 'GET', url: `/pos/api/v1/cards/${cardNumber}`, headers: { 'x-api-key': apiKey } });

  it('a key deactivated through one server stops working on the other at once, though both cache it', async () => {
    const key = await createPosKey(ctx);
    const other = await createPosKey(ctx);
    // The first call starts B's listener; once it listens, B remembers keys.
    await cardOn(serverB, key.apiKey);
    expect(await eventually(async () => serverB.posKeyCache.isUsable(), Boolean)).toBe(true);
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(200);
    expect((await cardOn(serverB, other.apiKey)).statusCode).toBe(200);

    // The cache is real: a change that announces nothing (written behind the servers' back) goes unseen.
    await sql`update pos_keys set status = 'inactive' where id = ${other.id}`.execute(ctx.database.db);
    expect((await cardOn(serverB, other.apiKey)).statusCode).toBe(200);

    const patch = await serverA.inject({
      method: 'PATCH',
      url: `/api/v1/pos-keys/${key.id}`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { status: 'inactive' },
    });
    expect(patch.statusCode).toBe(200);
    const after = await eventually(
      async () => (await cardOn(serverB, key.apiKey)).statusCode,
      (status) => status === 401,
    );
    expect(after).toBe(401);
    // Activated again: at once, nothing negative is remembered.
    await serverA.inject({
      method: 'PATCH',
      url: `/api/v1/pos-keys/${key.id}`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { status: 'active' },
    });
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(200);
  });
});
