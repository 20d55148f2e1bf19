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

describe('GET /api/v1/audit, a search of one or two characters (migration 042)', () => {
  const ilikeTotal = async (text: string, targetType?: string) => {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byType = targetType ? sql`and target_type = ${targetType}` : sql``;
    const { rows } = await sql<{ n: string }>`select count(*) as n from audit_log
      where (message ilike ${pattern} or username ilike ${pattern}) ${byType}`.execute(db);
    return Number(rows[0]!.n);
  };
  const searches = ['q', 'Qz', 'zq', 'É', 'é', '%', '_', 'e', 'ED', 'x9', '9'];

  it('answers the exact total of every short search after inserts, a redaction and a delete', async () => {
    await inTransaction(db, async (trx) => {
      await insertAudit(trx, { username: 'qzQz', message: 'Réglé qz', targetType: 'card' });
      await insertAudit(trx, { username: null, message: '100% done_x9', targetType: 'settings' });
      await insertAudit(trx, { username: 'ÉMILE', message: 'Blocked card', targetType: 'card' });
    });
    // An erasure redacts in place; a delete (a test's clean-up, a retention job) takes entries away.
    await sql`update audit_log set username = 'zq', message = 'Redacted' where username = 'qzQz'`.execute(db);
    await sql`delete from audit_log where message = '100% done_x9'`.execute(db);
    for (const text of searches) {
      for (const type of [undefined, 'card', 'settings']) {
        const query = `?search=${encodeURIComponent(text)}${type ? `&targetType=${type}` : ''}&size=200`;
        const page = (await get(query)).json();
        const expected = await ilikeTotal(text, type);
        expect({ query, total: page.totalElements }).toEqual({ query, total: expected });
        expect(page.content).toHaveLength(Math.min(expected, 200));
      }
    }
  });

  it('takes the total from the counters and lists nothing when they say 0', async () => {
    expect((await get('?search=jj')).json()).toMatchObject({ totalElements: 0, content: [] });
    await inTransaction(db, (trx) =>
      insertAudit(trx, { username: 'jj', message: 'Counted jj', targetType: 'auth' }),
    );
    expect((await get('?search=JJ')).json()).toMatchObject({
      totalElements: 1,
      content: [{ username: 'jj' }],
    });
    // A shard row the log does not have moves the short search's total only (longer ones count the log).
    await sql`insert into audit_search_counts (gram, target_type, shard, n) values ('jj', 'auth', -1, 5)`.execute(
      db,
    );
    try {
      expect((await get('?search=jj')).json().totalElements).toBe(6);
      expect((await get('?search=jj&targetType=auth')).json().totalElements).toBe(6);
      expect((await get('?search=jj&targetType=card')).json().totalElements).toBe(0);
      expect((await get('?search=Counted%20jj')).json().totalElements).toBe(1);
    } finally {
      await sql`delete from audit_search_counts where shard = -1`.execute(db);
    }
  });

  it('sorts a filtered list by the other column (the indexes of migration 042)', async () => {
    const all = (await get('?targetType=card&sort=username,asc&size=200')).json();
    const names = all.content.map((e: { username: string | null }) => e.username);
    const nonNull = names.filter((n: string | null) => n !== null);
    expect(nonNull).toEqual([...nonNull].sort());
    expect(all.content.every((e: { targetType: string }) => e.targetType === 'card')).toBe(true);
    expect((await get('?username=nobody-here&targetType=settings&sort=username,asc')).json()).toMatchObject({
      totalElements: 0,
      content: [],
    });
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
