import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { canonicalJson, requestHash } from '../../lib/request-hash';
import { deletedWhileWaiting, newApiKey } from '../pos/pos.fixtures';

// Admin creates under an Idempotency-Key (`createUnderKey`): an answer lost on the way (the POST reached the
// server, the connection was cut before the answer) made a second card, ruleset or POS key when the user
// pressed submit again, or refused the retry of their own POS key as unusable.
const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

type Send = (key: string | undefined, other?: boolean, token?: string) => Promise<LightMyRequestResponse>;

/** One route's requests for one test: `other` is another request (another body or target) than the first. */
interface Target {
  send: Send;
  /** How many rows the target's requests have made. */
  rows: () => Promise<number>;
}

interface CreateRoute {
  name: string;
  setup: () => Promise<Target>;
  /** Who sends (`own`, the default of `send`) and a second user of a role the route lets in (`other`). */
  users?: { own: string; other: string };
  /** The same request twice without a key: as before the fix (two rows, or a refusal of the second). */
  withoutKey: { statuses: [number, number]; rows: number };
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}-${++seq}`;
const headers = (token: string, key: string | undefined) => ({
  ...bearer(token),
  ...(key === undefined ? {} : { 'idempotency-key': key }),
});
const count = async (query: Promise<{ n: number | string | bigint }[]>) => Number((await query)[0]!.n);

/** A second ADMIN, for the routes only ADMINs may use: their keys are not the first ADMIN's. */
const secondAdmin = await (async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/auth/api/v1/users',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { username: 'second-admin', password: PASSWORD, role: 'ADMIN' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (await ctx.login('second-admin')).json().token as string;
})();

const newAccount = async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/accounts',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { clientId: `IDEM-CREATE-${unique()}` },
  });
  return res.json().id as string;
};

const routes: CreateRoute[] = [
  {
    name: 'issue card',
    async setup() {
      const accounts = [await newAccount(), await newAccount()];
      return {
        send: (key, other = false, token = ctx.tokens.MANAGER) =>
          app.inject({
            method: 'POST',
            url: `/api/v1/cards/issue/${accounts[other ? 1 : 0]}`,
            headers: headers(token, key),
          }),
        rows: () =>
          count(
            db
              .selectFrom('cards')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('account_id', 'in', accounts)
              .execute(),
          ),
      };
    },
    withoutKey: { statuses: [201, 201], rows: 2 },
  },
  {
    name: 'create ruleset (version Auto)',
    async setup() {
      // Percents of this test's own (1.01, 1.02…), so its rulesets are told apart from the other tests'.
      const percents = [(100 + ++seq) / 100, (100 + ++seq) / 100];
      return {
        send: (key, other = false, token = ctx.tokens.MANAGER) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/rulesets',
            headers: headers(token, key),
            payload: { version: null, config: { percent: percents[other ? 1 : 0] } },
          }),
        rows: () =>
          count(
            db
              .selectFrom('rulesets')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('percent', 'in', percents.map(String))
              .execute(),
          ),
      };
    },
    withoutKey: { statuses: [201, 201], rows: 2 },
  },
  {
    name: 'create POS key',
    async setup() {
      const name = `Idem till ${unique()}`;
      const apiKeys = [newApiKey(), newApiKey()];
      return {
        send: (key, other = false, token = ctx.tokens.MANAGER) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/pos-keys',
            headers: headers(token, key),
            payload: { name: other ? `${name} (other)` : name, apiKey: apiKeys[other ? 1 : 0] },
          }),
        rows: () =>
          count(
            db
              .selectFrom('pos_keys')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('name', 'like', `${name}%`)
              .execute(),
          ),
      };
    },
    // Before: the retry of a create whose answer was lost was refused as an unusable key (it exists).
    withoutKey: { statuses: [201, 400], rows: 1 },
  },
  {
    name: 'create account',
    async setup() {
      const clientIds = [`IDEM-${unique()}`, `IDEM-${unique()}`];
      return {
        send: (key, other = false, token = ctx.tokens.MANAGER) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/accounts',
            headers: headers(token, key),
            payload: { clientId: clientIds[other ? 1 : 0] },
          }),
        rows: () =>
          count(
            db
              .selectFrom('accounts')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('client_id', 'in', clientIds)
              .execute(),
          ),
      };
    },
    // Before: the retry of a create whose answer was lost was refused, its own account "already exists".
    withoutKey: { statuses: [201, 409], rows: 1 },
  },
  {
    name: 'create webhook endpoint',
    users: { own: ctx.tokens.ADMIN, other: secondAdmin },
    async setup() {
      const url = `https://hooks.example.com/idem-${unique()}`;
      return {
        send: (key, other = false, token = ctx.tokens.ADMIN) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/webhooks',
            headers: headers(token, key),
            payload: { url: other ? `${url}-other` : url, eventTypes: ['card.issued'] },
          }),
        rows: () =>
          count(
            db
              .selectFrom('webhook_endpoints')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('url', 'like', `${url}%`)
              .execute(),
          ),
      };
    },
    // Before: a second endpoint with the same URL, so every event was delivered twice.
    withoutKey: { statuses: [201, 201], rows: 2 },
  },
];

describe.each(routes)('$name with an Idempotency-Key', ({ setup, withoutKey, users }) => {
  const { own, other } = users ?? { own: ctx.tokens.MANAGER, other: ctx.tokens.ADMIN };

  it('the same key and request get the first answer again, and one row is made', async () => {
    const target = await setup();
    const key = `key-${unique()}`;
    const first = await target.send(key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await target.send(key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await target.rows()).toBe(1);
  });

  it('the same key with another request is 409 IDEMPOTENCY_KEY_REUSED and makes nothing', async () => {
    const target = await setup();
    const key = `key-${unique()}`;
    expect((await target.send(key)).statusCode).toBe(201);
    const other = await target.send(key, true);
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await target.rows()).toBe(1);
  });

  it("a key a manual accrual used is another request here (409), never that accrual's answer", async () => {
    const target = await setup();
    const key = `key-${unique()}`;
    const accrual = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: headers(own, key),
      payload: { accountId: await newAccount(), points: 1 },
    });
    expect(accrual.statusCode, accrual.body).toBe(201);
    const res = await target.send(key);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await target.rows()).toBe(0);
  });

  it('without a key it behaves as before: each request is a create of its own', async () => {
    const target = await setup();
    const statuses = [(await target.send(undefined)).statusCode, (await target.send(undefined)).statusCode];
    expect(statuses).toEqual(withoutKey.statuses);
    expect(await target.rows()).toBe(withoutKey.rows);
  });

  it('keys are per user: another user with the same key makes their own', async () => {
    const target = await setup();
    const key = `key-${unique()}`;
    expect((await target.send(key, false, own)).statusCode).toBe(201);
    const admin = await target.send(key, true, other);
    expect(admin.statusCode, admin.body).toBe(201);
    expect(admin.headers['idempotent-replayed']).toBeUndefined();
    expect(await target.rows()).toBe(2);
  });

  it('concurrent requests with one key: one row, every answer the same', async () => {
    const target = await setup();
    const key = `key-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => target.send(key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await target.rows()).toBe(1);
  });

  it.each([['has space'], ['x'.repeat(256)], ['']])('rejects the key %j with a 400', async (key) => {
    const target = await setup();
    const res = await target.send(key);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(await target.rows()).toBe(0);
  });
});

describe('what an admin create keeps under its key', () => {
  it('a refusal is not kept: the request sent again is decided again, and makes one row', async () => {
    const accountId = await newAccount();
    const setLimit = (limit: number | null) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/settings',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { cards: { limit_per_account: limit } },
      });
    const issue = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/cards/issue/${accountId}`,
        headers: headers(ctx.tokens.MANAGER, 'key-refused'),
      });
    expect((await setLimit(0)).statusCode).toBe(200);
    try {
      const refused = await issue();
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().code).toBe('CARD_LIMIT_EXCEEDED');
    } finally {
      expect((await setLimit(null)).statusCode).toBe(200);
    }
    const issued = await issue();
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.headers['idempotent-replayed']).toBeUndefined();
    expect((await issue()).headers['idempotent-replayed']).toBe('true');
    const cards = await db.selectFrom('cards').select('id').where('account_id', '=', accountId).execute();
    expect(cards).toHaveLength(1);
  });

  it("a POS key's request is kept by its keyed hash, not by a plain hash of the key", async () => {
    const apiKey = newApiKey();
    const body = { name: `Hashed ${unique()}`, apiKey };
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/pos-keys',
      headers: headers(ctx.tokens.MANAGER, 'key-hashed'),
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = await sql<{ request_hash: string; response: unknown }>`
      select request_hash, response from idempotency_keys where key = 'key-hashed'`.execute(db);
    expect(rows.rows).toHaveLength(1);
    const plain = { name: body.name, address: null, apiKey, status: 'active' };
    expect(rows.rows[0]!.request_hash).not.toBe(requestHash('create-pos-key', canonicalJson(plain)));
    expect(JSON.stringify(rows.rows[0])).not.toContain(apiKey);
  });

  it("a webhook endpoint's answer keeps its signing secret and URL encrypted; its replay has them in clear", async () => {
    const url = `https://hooks.example.com/sealed?token=token-${unique()}`;
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: headers(ctx.tokens.ADMIN, 'key-sealed'),
        payload: { url, eventTypes: ['card.issued'] },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const { secret } = first.json();
    expect(secret).toMatch(/^whsec_/);
    const rows = await sql<{ request_hash: string; response: unknown }>`
      select request_hash, response from idempotency_keys where key = 'key-sealed'`.execute(db);
    expect(rows.rows).toHaveLength(1);
    const kept = JSON.stringify(rows.rows[0]);
    expect(kept).not.toContain(secret);
    expect(kept).not.toContain(secret.slice('whsec_'.length));
    expect(kept).not.toContain('token-');
    const plain = { url, description: null, eventTypes: ['card.issued'], status: 'active' };
    expect(rows.rows[0]!.request_hash).not.toBe(requestHash('create-webhook', canonicalJson(plain)));
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.json()).toEqual(first.json());
  });

  // PostgreSQL only: the deletion commits while the create waits for the user's row (PGlite runs one at a time).
  it.runIf(ctx.database.kind === 'postgres')(
    'a user deleted while their create runs gets 401, not a 500, and nothing is made',
    async () => {
      const accountId = await newAccount();
      const user = await app.inject({
        method: 'POST',
        url: '/auth/api/v1/users',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { username: 'leaving-creator', password: PASSWORD, role: 'MANAGER' },
      });
      const id = user.json().id as string;
      const token = (await ctx.login('leaving-creator')).json().token;
      const res = await deletedWhileWaiting(db, { table: 'users', id }, () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/cards/issue/${accountId}`,
          headers: headers(token, 'key-gone'),
        }),
      );
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      const cards = await db.selectFrom('cards').select('id').where('account_id', '=', accountId).execute();
      expect(cards).toHaveLength(0);
    },
  );
});
