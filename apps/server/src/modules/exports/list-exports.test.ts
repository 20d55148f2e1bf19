import {
  account,
  auditEntry,
  cardListItem,
  delivery,
  excludedSku,
  operation,
  posKey,
  ruleset as rulesetWire,
  user,
} from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseCsv } from '../../../test/csv-parse';
import { bearer, createTestContext } from '../../../test/helper';
import { amountColumns, csvCell } from '../../lib/csv';
import { listSource, streamList } from '../../lib/list-stream';
import { accountsExportSource } from '../accounts/accounts.repository';
import { auditExportSource } from '../audit/audit.repository';
import { cardsExportSource } from '../cards/cards.repository';
import { deliveriesExportSource } from '../events/deliveries.repository';
import { operationsExportSource } from '../operations/operations.repository';
import { posKeysExportSource } from '../pos-keys/pos-keys.repository';
import { excludedSkusExportSource } from '../rulesets/excluded-skus.repository';
import { rulesetsExportSource } from '../rulesets/rulesets.repository';
import { usersExportSource } from '../users/users.repository';

// Raw rows with balances behind no operations, seeded for the reads: no ledger check in this file.
const ctx = await createTestContext({}, { verifyLedger: false });
const { app } = ctx;
const { db } = ctx.database;

// Text a spreadsheet would run, and text that needs RFC 4180 quoting, in the columns that take free text.
const TRICKY = ['=1+1', '+x', '-y', '@z', 'comma, inside', 'quote " inside', 'line\nbreak', 'plain'];

const accounts = await db
  .insertInto('accounts')
  .values(
    Array.from({ length: 30 }, (_, i) => ({
      client_id: `${TRICKY[i % TRICKY.length]} ${String(i).padStart(2, '0')}`,
      balance: String((i % 7) * 10), // ties in the balance sort
    })),
  )
  .returning(['id', 'client_id'])
  .execute();
// Text that looks like a signed number: a text cell still, unlike an amount.
await db.insertInto('accounts').values({ client_id: '-0042' }).execute();
await db
  .insertInto('cards')
  .values(
    accounts.slice(0, 20).map((a, i) => ({
      account_id: a.id,
      number: `40000000${String(i).padStart(8, '0')}`,
      status: i % 4 === 0 ? ('blocked' as const) : ('active' as const),
    })),
  )
  .execute();
// One statement: many operations share a created_at, so the tie-break decides their order.
await sql`
  insert into operations (type, status, points, account_id, card_number, meta, created_at)
  select (array['accrual','redemption','adjustment'])[1 + n % 3]::text,
         (array['completed','failed'])[1 + n % 2]::text,
         case when n % 3 = 1 then -(n % 9) else n % 11 end,
         ${accounts[0]!.id}::uuid, '4000000000000000',
         jsonb_build_object('reason', case when n % 5 = 0 then '=HYPERLINK("x")' else 'note ' || n end),
         timestamptz '2026-01-01' + (n / 4) * interval '1 minute' + (n % 3) * interval '1 microsecond'
  from generate_series(1, 61) n`.execute(db);
await db
  .insertInto('users')
  .values(
    Array.from({ length: 12 }, (_, i) => ({
      username: `user-${i}`,
      password_hash: 'x',
      email: i % 3 === 0 ? null : `${TRICKY[i % TRICKY.length]}@example.com`,
      full_name: i % 4 === 0 ? null : `Name ${i % 5}`,
      role: 'VIEWER' as const,
    })),
  )
  .execute();
await db
  .insertInto('pos_keys')
  .values(
    Array.from({ length: 9 }, (_, i) => ({
      name: `${TRICKY[i % TRICKY.length]} till`,
      address: i % 2 ? null : `Street ${i % 3}`,
      key_hash: `hash-${i}`,
      key_cipher: 'c',
      status: i % 3 ? ('active' as const) : ('inactive' as const),
      last_used_at: i % 4 ? new Date(Date.UTC(2026, 0, 1 + (i % 2))) : null,
    })),
  )
  .execute();
const ruleset = await db
  .insertInto('rulesets')
  .values({ version: 900, percent: '5', created_by: 'admin' })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('excluded_skus')
  .values(
    Array.from({ length: 14 }, (_, i) => ({
      ruleset_id: ruleset.id,
      sku: `${TRICKY[i % TRICKY.length]}-${i}`,
      description: i % 3 ? `desc ${i % 4}` : null,
      category: i % 2 ? `cat ${i % 3}` : null,
    })),
  )
  .execute();
await db
  .insertInto('audit_log')
  .values(
    Array.from({ length: 17 }, (_, i) => ({
      username: i % 4 ? `who-${i % 3}` : null,
      message: `${TRICKY[i % TRICKY.length]} happened`,
      target_type: i % 2 ? 'account' : 'card',
      target_id: `t-${i % 5}`,
      dest: JSON.stringify({ value: TRICKY[i % TRICKY.length] }),
    })),
  )
  .execute();

await db
  .insertInto('rulesets')
  .values(
    Array.from({ length: 8 }, (_, i) => ({
      version: 901 + i,
      percent: String(1 + (i % 3)),
      created_by: 'admin',
      active_from: i % 3 === 0 ? null : new Date(Date.UTC(2025, i % 2, 1)),
      retired_at: i === 4 ? new Date(Date.UTC(2025, 6, 1)) : null,
    })),
  )
  .execute();

const webhookId = crypto.randomUUID();
await db
  .insertInto('webhook_endpoints')
  .values({
    id: webhookId,
    url: 'https://hooks.example.com/loyalty',
    event_types: sql`array['account.created']`,
    status: 'disabled',
    secret_cipher: 'c',
  })
  .execute();
// Finished deliveries only (the delivery worker leaves them alone), many sharing a created_at.
await sql`
  with e as (
    insert into events (type, data)
    select 'account.created', jsonb_build_object('clientId', ${TRICKY[0]}::text || n) from generate_series(1, 9) n
    returning id
  )
  insert into webhook_deliveries (endpoint_id, event_id, status, attempts, last_error, created_at)
  select ${webhookId}::uuid, e.id, case when e.id % 2 = 0 then 'failed' else 'succeeded' end, 1,
         ${TRICKY[1]}, timestamptz '2026-01-01' + (e.id % 3) * interval '1 minute'
  from e`.execute(db);

interface Case {
  path: string;
  query: string;
  item: z.ZodObject;
  /** The same export through the repository with tiny batches, so every keyset boundary is crossed. */
  direct: (batch: number) => AsyncIterable<object>;
}

const skuPath = `/api/v1/rulesets/${ruleset.id}/excluded-skus`;
const cases: Case[] = [
  ...['', 'sort=createdAt,asc', 'sort=clientId,asc', 'sort=balance,desc', 'sort=balance,asc&search=in'].map(
    (query) => ({
      path: '/api/v1/accounts',
      query,
      item: account,
      direct: (b: number) =>
        streamList(accountsExportSource(db, filterOf(query)), { batchSize: b, snapshot: db }),
    }),
  ),
  ...['', 'status=active&sort=number,asc', `search=${accounts[3]!.id}`, 'sort=createdAt,asc'].map(
    (query) => ({
      path: '/api/v1/cards',
      query,
      item: cardListItem,
      direct: (b: number) =>
        (async function* () {
          yield* streamList(await cardsExportSource(db, filterOf(query)), { batchSize: b, snapshot: db });
        })(),
    }),
  ),
  ...['', 'sort=createdAt,asc', 'type=redemption', 'status=failed&search=4000'].map((query) => ({
    path: '/api/v1/operations',
    query,
    item: operation,
    direct: (b: number) =>
      streamList(operationsExportSource(db, { page: 0, size: 1, ...filterOf(query) }), {
        batchSize: b,
        snapshot: db,
      }),
  })),
  ...['', 'sort=email,asc', 'sort=fullName,desc', 'sort=lastLogin,asc', 'role=VIEWER&search=example'].map(
    (query) => ({
      path: '/auth/api/v1/users',
      query,
      item: user,
      direct: (b: number) =>
        streamList(usersExportSource(db, filterOf(query)), { batchSize: b, snapshot: db }),
    }),
  ),
  ...['', 'sort=address,asc', 'sort=lastUsedAt,desc', 'status=active&sort=name,asc'].map((query) => ({
    path: '/api/v1/pos-keys',
    query,
    item: posKey,
    direct: (b: number) =>
      streamList(posKeysExportSource(db, filterOf(query)), { batchSize: b, snapshot: db }),
  })),
  ...['', 'sort=description,desc', 'sort=category,asc', 'category=&sort=createdAt,desc'].map((query) => ({
    path: skuPath,
    query,
    item: excludedSku,
    direct: (b: number) =>
      streamList(excludedSkusExportSource(db, ruleset.id, filterOf(query)), { batchSize: b, snapshot: db }),
  })),
  ...['', 'sort=username,asc', 'sort=username,desc', 'sort=targetType,asc&targetId=t-1'].map((query) => ({
    path: '/api/v1/audit',
    query,
    item: auditEntry,
    direct: (b: number) => streamList(auditExportSource(db, filterOf(query)), { batchSize: b, snapshot: db }),
  })),
  ...['', 'sort=activeFrom,asc', 'sort=activeFrom,desc', 'sort=percent,asc&status=Draft'].map((query) => ({
    path: '/api/v1/rulesets',
    query,
    item: rulesetWire,
    direct: (b: number) =>
      streamList(rulesetsExportSource(db, filterOf(query)), { batchSize: b, snapshot: db }),
  })),
  ...['', 'status=failed'].map((query) => ({
    path: `/api/v1/webhooks/${webhookId}/deliveries`,
    query,
    item: delivery,
    direct: (b: number) =>
      streamList(deliveriesExportSource(db, { webhookId, ...filterOf(query) }), {
        batchSize: b,
        snapshot: db,
      }),
  })),
];

/** The repository filter of a query string, parsed by the route's own contract. */
function filterOf(query: string) {
  const params = Object.fromEntries(new URLSearchParams(query));
  const sort = params.sort?.split(',');
  return {
    ...params,
    ...(sort ? { sort: { field: sort[0], direction: sort[1] } } : {}),
    ...(params.category === '' ? { category: '' } : {}),
    // biome-ignore lint/suspicious/noExplicitAny: a test adapter from query text to each repository's filter type
  } as any;
}

const get = (url: string) => app.inject({ url, headers: bearer(ctx.tokens.ADMIN) });

/** Every JSON page of the list, concatenated, as the CSV records they should be. */
async function pagesAsRecords(c: Case): Promise<string[][]> {
  const columns = Object.keys(c.item.shape);
  const records: string[][] = [];
  for (let page = 0; ; page++) {
    const res = await get(`${c.path}?${c.query}&size=7&page=${page}`);
    expect(res.statusCode, res.body).toBe(200);
    const { content } = res.json() as { content: Record<string, unknown>[] };
    const amounts = amountColumns(c.item);
    records.push(...content.map((row) => columns.map((column) => csvCell(row[column], amounts.has(column)))));
    if (content.length < 7) return records;
  }
}

describe('format=csv: every row of the list, as its JSON pages say', () => {
  it.each(cases)('$path?$query', async (c) => {
    const expected = await pagesAsRecords(c);
    expect(expected.length).toBeGreaterThan(0);
    const res = await get(`${c.path}?${c.query}&format=csv&size=3&page=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[a-z-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...records] = parseCsv(res.body);
    expect(header).toEqual(Object.keys(c.item.shape));
    expect(records).toEqual(expected);

    const columns = Object.keys(c.item.shape);
    const amounts = amountColumns(c.item);
    const direct: string[][] = [];
    for await (const row of c.direct(2)) {
      direct.push(
        columns.map((column) => csvCell((row as Record<string, unknown>)[column], amounts.has(column))),
      );
    }
    expect(direct).toEqual(expected);
  });

  it('defuses formulas in text cells, keeps signed amounts as numbers', async () => {
    const csv = (await get('/api/v1/operations?format=csv&type=redemption')).body;
    expect(csv).toMatch(/,redemption,-\d\.00,/);
    for (const c of cases) {
      const cells = parseCsv((await get(`${c.path}?${c.query}&format=csv`)).body).flat();
      const formulas = cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell));
      expect(formulas, `${c.path}?${c.query}`).toEqual([]);
    }
    const clients = (await get('/api/v1/accounts?format=csv&sort=clientId,asc')).body;
    expect(clients).toContain(",'=1+1 00,");
    expect(clients).toContain(",'+x 01,");
    expect(clients).toContain(",'-y 02,");
    expect(parseCsv(clients).map((r) => r[1])).toContain("'@z 03");
    expect(clients).toContain(",'-0042,");
  });

  it('the same roles as the JSON list, and its validation', async () => {
    const as = (role: 'VIEWER' | 'MANAGER', url: string) =>
      app.inject({ url, headers: bearer(ctx.tokens[role]) }).then((r) => r.statusCode);
    expect(await as('MANAGER', '/api/v1/audit?format=csv')).toBe(403);
    expect(await as('MANAGER', '/auth/api/v1/users?format=csv')).toBe(403);
    expect(await as('MANAGER', `/api/v1/webhooks/${webhookId}/deliveries?format=csv`)).toBe(403);
    expect(await as('VIEWER', '/api/v1/operations?format=csv')).toBe(200);
    const unauthenticated = await app.inject({ url: '/api/v1/cards?format=csv' });
    expect(unauthenticated.statusCode).toBe(401);
    const bad = await get('/api/v1/accounts?format=xlsx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const missing = await get(`/api/v1/rulesets/${crypto.randomUUID()}/excluded-skus?format=csv`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });
});

/** The export ranks PGlite holds now (list-stream-embedded.ts; its one session sees every request's). */
async function exportRanks(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_class
    where relkind = 'r' and relpersistence = 't' and relname like 'list\_export\_%'`.execute(db);
  return rows[0]!.n;
}

describe('format=csv while the list changes', () => {
  // On PostgreSQL every batch reads the snapshot of the file's start; on PGlite the file's rows and order are
  // ranked when it begins (holding its one connection for the download would stop every other request).
  it('rows whose sort key changes mid-file are listed once each, as they stood when the file began', async () => {
    const moving = await db
      .insertInto('accounts')
      .values([10, 20, 30, 40, 50, 60].map((n) => ({ client_id: `mv-${n}`, balance: String(n) })))
      .returning(['id', 'client_id'])
      .execute();
    const idOf = (clientId: string) => moving.find((a) => a.client_id === clientId)!.id;
    const rows = streamList(accountsExportSource(db, filterOf('sort=balance,desc&search=mv-')), {
      batchSize: 2,
      snapshot: db,
    })[Symbol.asyncIterator]();
    const seen = [(await rows.next()).value, (await rows.next()).value];
    // Past the walk's position both ways: the lowest to the top, the highest to the bottom.
    await db.updateTable('accounts').set({ balance: '100' }).where('id', '=', idOf('mv-10')).execute();
    await db.updateTable('accounts').set({ balance: '0' }).where('id', '=', idOf('mv-60')).execute();
    for (let next = await rows.next(); !next.done; next = await rows.next()) seen.push(next.value);
    expect(seen.map((a) => a.clientId)).toEqual(['mv-60', 'mv-50', 'mv-40', 'mv-30', 'mv-20', 'mv-10']);
    expect(await exportRanks()).toBe(0);
  });

  it('a download whose row moves while its client reads holds every row once (the route, on either database)', async () => {
    const seeded = await db
      .insertInto('accounts')
      .values(
        Array.from({ length: 3000 }, (_, g) => ({ client_id: `ex-${g + 1}`, balance: String(100 + g + 1) })),
      )
      .returning(['id', 'client_id'])
      .execute();
    const res = await app.inject({
      url: '/api/v1/accounts?format=csv&sort=balance,desc&search=ex-',
      headers: bearer(ctx.tokens.ADMIN),
      payloadAsStream: true,
    });
    expect(res.statusCode).toBe(200);
    const chunks = res.stream()[Symbol.asyncIterator]();
    const parts: Buffer[] = [(await chunks.next()).value];
    // The lowest balance, last in the file: not read yet when it moves to the top.
    expect(Buffer.concat(parts).toString()).not.toContain(',ex-1,');
    const moved = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { accountId: seeded.find((a) => a.client_id === 'ex-1')!.id, points: 100000 },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) parts.push(next.value);
    const body = Buffer.concat(parts).toString();
    const clientIds = parseCsv(body)
      .slice(1)
      .map((record) => record[1]);
    expect(clientIds).toHaveLength(3000);
    expect(new Set(clientIds).size).toBe(3000);
    expect(clientIds.at(-1)).toBe('ex-1');
    expect(await exportRanks()).toBe(0);
  });

  it.runIf(ctx.database.kind === 'pglite')(
    'on PGlite a download ranks its rows once, and drops them when it ends, fails or is left mid-file',
    async () => {
      const source = () => accountsExportSource(db, filterOf('sort=clientId,asc'));
      const left = streamList(source(), { batchSize: 2, snapshot: db })[Symbol.asyncIterator]();
      expect((await left.next()).done).toBe(false);
      expect(await exportRanks()).toBe(1);
      // As when a client goes away: the reply's pipeline ends the walk.
      await left.return(undefined);
      expect(await exportRanks()).toBe(0);

      const { query, order } = source();
      let batches = 0;
      const failing = listSource(query, order, (rows) => {
        if (++batches === 2) throw new Error('mapping failed');
        return rows;
      });
      await expect(
        (async () => {
          for await (const _ of streamList(failing, { batchSize: 2, snapshot: db }));
        })(),
      ).rejects.toThrow('mapping failed');
      expect(await exportRanks()).toBe(0);
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'downloads whose clients stop taking rows give their snapshots back: the next one runs, theirs are cut',
    async () => {
      const source = () => accountsExportSource(db, filterOf('sort=clientId,asc'));
      // As many as there are slots, each stalled after its first row by a client still connected.
      const stalled = [0, 1].map(() =>
        streamList(source(), { batchSize: 2, snapshot: db, stallMs: 50 })[Symbol.asyncIterator](),
      );
      for (const rows of stalled) expect((await rows.next()).done).toBe(false);
      // Two more, both holding a slot at once: only when the stall watch has freed both stalled ones' slots.
      const fresh = [0, 1].map(() =>
        streamList(source(), { batchSize: 50, snapshot: db })[Symbol.asyncIterator](),
      );
      for (const rows of fresh) expect((await rows.next()).done).toBe(false);
      for (const rows of fresh) {
        let count = 1;
        for (let next = await rows.next(); !next.done; next = await rows.next()) count++;
        expect(count).toBeGreaterThan(30);
      }
      // Taken up again, a stalled download fails at its next batch instead of reading a snapshot it gave back.
      for (const rows of stalled) {
        await expect(
          (async () => {
            for (let next = await rows.next(); !next.done; next = await rows.next());
          })(),
        ).rejects.toThrow(/export stalled/);
      }
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'a download left mid-file frees its snapshot: more than the slots of them leave the next one to run',
    async () => {
      const source = () => accountsExportSource(db, filterOf('sort=clientId,asc'));
      // Left after a first row, as when a client goes away (the reply's pipeline ends the walk).
      for (let i = 0; i < 3; i++) {
        const rows = streamList(source(), { batchSize: 2, snapshot: db })[Symbol.asyncIterator]();
        expect((await rows.next()).done).toBe(false);
        await rows.return(undefined);
      }
      let count = 0;
      for await (const _ of streamList(source(), { batchSize: 5, snapshot: db })) count++;
      expect(count).toBeGreaterThan(30);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`.execute(db);
      expect(rows[0]!.n).toBe(0);
    },
  );
});
