import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { insertAudit } from './audit.repository';
import { redactSecrets } from './redact';

const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;
const get = (query: string, token = ctx.tokens.ADMIN) =>
  app.inject({ url: `/api/v1/audit${query}`, headers: bearer(token) });

describe('GET /api/v1/audit', () => {
  it('is for ADMIN only', async () => {
    expect((await get('', ctx.tokens.MANAGER)).statusCode).toBe(403);
    expect((await get('', ctx.tokens.VIEWER)).statusCode).toBe(403);
    expect((await get('')).statusCode).toBe(200);
  });

  it('pages newest first and filters by username, type, target and search', async () => {
    for (const name of ['alpha', 'beta', 'gamma']) {
      await app.inject({
        method: 'POST',
        url: '/auth/api/v1/users',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { username: name, password: 'password-123' },
      });
    }
    const page = (await get('?size=2&targetType=user')).json();
    expect(page.content).toHaveLength(2);
    expect(page.content[0].message).toBe("Created user 'gamma' with role VIEWER");
    expect(page.content[0].executedAt >= page.content[1].executedAt).toBe(true);

    const bySearch = (await get('?search=BETA')).json();
    expect(bySearch.content.map((e: { message: string }) => e.message)).toEqual([
      "Created user 'beta' with role VIEWER",
    ]);

    const byUser = (await get('?username=ADMIN&targetType=user&size=200')).json();
    expect(byUser.totalElements).toBe(3);

    const target = bySearch.content[0].targetId;
    expect((await get(`?targetId=${target}`)).json().totalElements).toBe(1);
    // A UUID is the same id in either case (RFC 9562), as every other id parameter takes it.
    expect((await get(`?targetId=${target.toUpperCase()}`)).json().totalElements).toBe(1);

    const oldestFirst = (await get('?targetType=user&sort=executedAt,asc&size=1')).json();
    // The fixture's users were created first, the admin before everyone.
    expect(oldestFirst.content[0].message).toBe("Created user 'admin' with role ADMIN");
  });

  it("answers exact totals from the log's counters, unfiltered and by type, and counts every other filter", async () => {
    const counted = async (where: string) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from audit_log ${sql.raw(where)}`.execute(db)).rows[0]!
          .n,
      );
    await inTransaction(db, async (trx) => {
      for (const targetType of ['auth', 'auth', 'settings'] as const) {
        await insertAudit(trx, { username: 'counted', message: `Counted ${targetType}`, targetType });
      }
    });
    expect((await get('')).json().totalElements).toBe(await counted(''));
    expect((await get('?targetType=auth')).json().totalElements).toBe(
      await counted("where target_type = 'auth'"),
    );
    expect((await get('?targetType=settings')).json().totalElements).toBe(
      await counted("where target_type = 'settings'"),
    );
    expect((await get('?username=counted&targetType=auth')).json().totalElements).toBe(2);
    expect((await get('?search=Counted')).json().totalElements).toBe(3);
    // Which way each total is taken: a shard row the log does not have moves the counted totals only.
    await sql`insert into audit_counts (target_type, shard, n) values ('auth', -1, 5)`.execute(db);
    try {
      expect((await get('')).json().totalElements).toBe((await counted('')) + 5);
      expect((await get('?targetType=auth')).json().totalElements).toBe(
        (await counted("where target_type = 'auth'")) + 5,
      );
      expect((await get('?targetType=settings')).json().totalElements).toBe(
        await counted("where target_type = 'settings'"),
      );
      expect((await get('?search=Counted')).json().totalElements).toBe(3);
    } finally {
      await sql`delete from audit_counts where shard = -1`.execute(db);
    }
  });

  it('filters by a username JavaScript lowercases otherwise (İ), as the database does', async () => {
    // An entry under a name no user has: a failed sign-in wrote the name typed until 2026-11-28 (now it writes
    // none), so older logs hold such names. 'İ'.toLowerCase() is 'i̇' (two code points).
    await inTransaction(ctx.database.db, (trx) =>
      insertAudit(trx, { username: 'İNAN', message: "Failed sign-in for 'İNAN'", targetType: 'auth' }),
    );
    const entries = (await get(`?username=${encodeURIComponent('İNAN')}`)).json();
    expect(entries).toMatchObject({ totalElements: 1, content: [{ username: 'İNAN', targetType: 'auth' }] });
  });

  it('searches literally (a % is not a wildcard)', async () => {
    expect((await get('?search=%25')).json().totalElements).toBe(0);
  });

  it('lists the entries of one transaction (one executedAt) in the order they were written', async () => {
    const targetId = crypto.randomUUID();
    const messages = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
    await inTransaction(db, async (trx) => {
      for (const message of messages)
        await insertAudit(trx, { username: 'admin', message, targetType: 'card', targetId });
    });
    const listed = async (direction: string) =>
      (await get(`?targetId=${targetId}&sort=executedAt,${direction}`))
        .json()
        .content.map((e: { message: string }) => e.message);
    expect(await listed('asc')).toEqual(messages);
    expect(await listed('desc')).toEqual([...messages].reverse());
  });

  it('rejects an unknown target type', async () => {
    const res = await get('?targetType=galaxy');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('redactSecrets', () => {
  it('drops secret keys at any depth and keeps the rest', () => {
    expect(
      redactSecrets({
        name: 'n',
        password: 'p',
        nested: { apiKey: 'k', key_hash: 'h', ok: [{ token: 't', v: 1 }] },
      }),
    ).toEqual({ name: 'n', nested: { ok: [{ v: 1 }] } });
  });
});
