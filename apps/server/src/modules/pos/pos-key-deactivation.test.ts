import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestContext } from '../../../test/helper';
import type { App } from '../../app';
import { createCard, createPosKey } from './pos.fixtures';

// Two servers on one database, as behind a load balancer (on PGlite, two apps on the one embedded database).
const ctx = await createTestContext();

describe('a POS key changed through one server', () => {
  let serverA: App;
  let serverB: App;
  let cardNumber: string;
  beforeAll(async () => {
    serverA = await buildTestApp(ctx.database);
    serverB = await buildTestApp(ctx.database);
    cardNumber = (await createCard(ctx.database.db)).number;
  });
  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
  });
  const cardOn = (app: App, apiKey: string) =>
    app.inject({ method: 'GET', url: `/pos/api/v1/cards/${cardNumber}`, headers: { 'x-api-key': apiKey } });
  const setStatus = (id: string, status: 'active' | 'inactive') =>
    serverA.inject({
      method: 'PATCH',
      url: `/api/v1/pos-keys/${id}`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { status },
    });

  it('stops working on the other server at once when deactivated, and works again at once when activated', async () => {
    const key = await createPosKey(ctx);
    // Both servers have served the key just before: nothing they remember may outlive the change.
    expect((await cardOn(serverA, key.apiKey)).statusCode).toBe(200);
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(200);
    expect((await setStatus(key.id, 'inactive')).statusCode).toBe(200);
    expect((await cardOn(serverB, key.apiKey)).json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await setStatus(key.id, 'active')).statusCode).toBe(200);
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(200);
  });

  it('follows the database even for a change written behind the servers’ back', async () => {
    const key = await createPosKey(ctx);
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(200);
    await sql`update pos_keys set status = 'inactive' where id = ${key.id}`.execute(ctx.database.db);
    expect((await cardOn(serverB, key.apiKey)).statusCode).toBe(401);
  });
});
