import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4 "Import of members".
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);
const HEADER = 'clientId,cardNumber,points,expiresAt,reason';
const FUTURE = '2099-01-01T00:00:00Z';

const accountsLike = async (prefix: string) =>
  (
    await sql<{ client_id: string; balance: string; cards: string[] }>`
      select a.client_id, a.balance::text as balance,
        coalesce(array_agg(c.number order by c.number) filter (where c.id is not null), '{}') as cards
      from accounts a left join cards c on c.account_id = a.id
      where a.client_id like ${`${prefix}%`} group by a.id order by a.client_id`.execute(db)
  ).rows;
const auditCount = async () =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from audit_log where target_type = 'import'`.execute(db))
      .rows[0]!.n,
  );
const eventCounts = async () =>
  Object.fromEntries(
    (
      await sql<{
        type: string;
        n: number;
      }>`select type, count(*)::int as n from events group by type`.execute(db)
    ).rows.map((r) => [r.type, r.n]),
  );
const expectLedgerSound = async () => expect(ledgerIsSound(await verifyLedger(db))).toBe(true);

describe('member import', () => {
  const file = csv(
    HEADER,
    `DRY-1,4000000000000001,100.50,${FUTURE},Opening`,
    'DRY-2,,,,',
    'DRY-3,12345678,7,,',
  );

  it('a dry run reports what would happen and writes nothing', async () => {
    const audits = await auditCount();
    const events = await eventCounts();
    const res = await post('accounts', file, { query: 'dryRun=true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ dryRun: true, rows: 3, created: 3, unchanged: 0, failed: 0, errors: [] });
    expect(await accountsLike('DRY-')).toEqual([]);
    expect(await auditCount()).toBe(audits);
    expect(await eventCounts()).toEqual(events);
  });

  it('imports accounts, cards and opening balances; the same file again is all unchanged', async () => {
    const audits = await auditCount();
    const events = await eventCounts();
    const first = await post('accounts', file);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ dryRun: false, rows: 3, created: 3, unchanged: 0, failed: 0 });
    expect(await accountsLike('DRY-')).toEqual([
      { client_id: 'DRY-1', balance: '100.50', cards: ['4000000000000001'] },
      { client_id: 'DRY-2', balance: '0.00', cards: [] },
      { client_id: 'DRY-3', balance: '7.00', cards: ['12345678'] },
    ]);
    const opening = await sql<{ meta: Record<string, unknown>; card_number: string | null }>`
      select o.meta, o.card_number from operations o join accounts a on a.id = o.account_id
      where a.client_id = 'DRY-1'`.execute(db);
    expect(opening.rows).toEqual([
      {
        card_number: '4000000000000001',
        meta: expect.objectContaining({ source: 'import-opening', reason: 'Opening', line: 2 }),
      },
    ]);
    // Kept in the meta too; the lot is dated by it (PROGRAMME-API.md §1).
    expect(Date.parse(opening.rows[0]!.meta.expiresAt as string)).toBe(Date.parse(FUTURE));
    await expectLedgerSound();
    // The outbox as for one-by-one writes: each account, each card, each opening balance.
    const plus = (type: string, n: number) => (events[type] ?? 0) + n;
    expect(await eventCounts()).toMatchObject({
      'account.created': plus('account.created', 3),
      'card.issued': plus('card.issued', 2),
      'points.adjusted': plus('points.adjusted', 2),
    });
    const adjusted = await sql<{ data: { balance: number; points: string; accountId: string } }>`
      select data from events where type = 'points.adjusted' order by id desc limit 1`.execute(db);
    expect(adjusted.rows[0]!.data).toMatchObject({ balance: 7, points: '7.00' });

    const again = await post('accounts', file);
    expect(again.json()).toMatchObject({ rows: 3, created: 0, unchanged: 3, failed: 0, errors: [] });
    expect((await accountsLike('DRY-')).map((a) => a.balance)).toEqual(['100.50', '0.00', '7.00']);
    expect(await auditCount()).toBe(audits + 2);
    await expectLedgerSound();
  });

  it('a bad row in the middle writes nothing and names its line', async () => {
    const res = await post(
      'accounts',
      csv(HEADER, 'MID-1,,5,,', 'MID-2,,5.123,,', 'MID-3,,,,', 'DRY-1,,,,', 'MID-4,4000000000000001,,,'),
    );
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ dryRun: false, rows: 5, created: 0, failed: 3 });
    expect(report.errors).toEqual([
      { line: 3, code: 'VALIDATION_ERROR', message: expect.stringContaining('points') },
      { line: 5, code: 'ACCOUNT_EXISTS', message: expect.any(String) },
      { line: 6, code: 'CARD_EXISTS', message: expect.any(String) },
    ]);
    expect(await accountsLike('MID-')).toEqual([]);
  });

  it('skipInvalid writes the valid rows and reports the others', async () => {
    const res = await post(
      'accounts',
      csv(HEADER, 'SKIP-1,,5,,', 'SKIP-2,abc,,,', 'skip-1,,,,', 'SKIP-3,,1,,'),
      {
        query: 'skipInvalid=true',
      },
    );
    expect(res.json()).toMatchObject({ rows: 4, created: 2, unchanged: 0, failed: 2 });
    expect(res.json().errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [3, 'VALIDATION_ERROR'],
      [4, 'ACCOUNT_EXISTS'],
    ]);
    expect((await accountsLike('SKIP-')).map((a) => [a.client_id, a.balance])).toEqual([
      ['SKIP-1', '5.00'],
      ['SKIP-3', '1.00'],
    ]);
    await expectLedgerSound();
  });

  it('a client ID repeated exactly in a file gets nothing on its repeat: one account, one card, one opening', async () => {
    const events = await eventCounts();
    const file = csv(HEADER, 'REP-1,55550001,10,,', 'REP-1,55550002,20,,');
    const dry = await post('accounts', file, { query: 'dryRun=true&skipInvalid=true' });
    expect(dry.json()).toMatchObject({ created: 1, failed: 1 });
    const res = await post('accounts', file, { query: 'skipInvalid=true' });
    expect(res.json()).toMatchObject({ rows: 2, created: 1, unchanged: 0, failed: 1 });
    expect(res.json().errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [3, 'ACCOUNT_EXISTS'],
    ]);
    // Before: the repeat was refused in the answer but issued its card and posted its points too (30.00).
    expect(await accountsLike('REP-')).toEqual([
      { client_id: 'REP-1', balance: '10.00', cards: ['55550001'] },
    ]);
    const after = await eventCounts();
    expect((after['points.adjusted'] ?? 0) - (events['points.adjusted'] ?? 0)).toBe(1);
    expect((after['card.issued'] ?? 0) - (events['card.issued'] ?? 0)).toBe(1);
    await expectLedgerSound();
  });

  it("a repeat whose card is another client's is an error row, not a 500, in a dry run and a real one", async () => {
    expect((await post('accounts', csv(HEADER, 'OWNER-1,66660001,,,'))).json()).toMatchObject({ created: 1 });
    const file = csv(HEADER, 'K-1,66660002,10,,', 'K-1,66660001,5,,');
    // A dry run says what would be created; without skipInvalid the file writes nothing.
    for (const [query, created] of [
      ['dryRun=true', 1],
      ['dryRun=true&skipInvalid=true', 1],
      ['', 0],
    ] as const) {
      const refused = await post('accounts', file, { query });
      expect(refused.statusCode, refused.body).toBe(200);
      expect(refused.json()).toMatchObject({ created, failed: 1 });
    }
    expect(await accountsLike('K-')).toEqual([]);
    const res = await post('accounts', file, { query: 'skipInvalid=true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, failed: 1 });
    expect(await accountsLike('K-')).toEqual([{ client_id: 'K-1', balance: '10.00', cards: ['66660002'] }]);
    await expectLedgerSound();
  });

  it('repeats chained through each other are decided in line order, as one row after another would be', async () => {
    // What the contract means, one row at a time: a row is accepted unless an earlier accepted row has its
    // client ID (in any case) or its card number.
    const reference = (rows: Array<[string, string | null]>) => {
      const clients = new Map<string, number>();
      const cards = new Map<string, number>();
      const errors: Array<[number, string, string]> = [];
      for (const [i, [client, card]] of rows.entries()) {
        const line = i + 2;
        const byClient = clients.get(client.toLowerCase());
        const byCard = card ? cards.get(card) : undefined;
        if (byClient) errors.push([line, 'ACCOUNT_EXISTS', `clientId is also on line ${byClient}`]);
        else if (byCard) errors.push([line, 'CARD_EXISTS', `cardNumber is also on line ${byCard}`]);
        else {
          clients.set(client.toLowerCase(), line);
          if (card) cards.set(card, line);
        }
      }
      return errors;
    };
    const check = async (prefix: string, rows: Array<[string, string | null]>) => {
      const body = csv(HEADER, ...rows.map(([client, card]) => `${prefix}${client},${card ?? ''},,,`));
      const res = await post('accounts', body, { query: 'dryRun=true' });
      expect(res.statusCode, res.body).toBe(200);
      const expected = reference(rows);
      expect(res.json()).toMatchObject({ created: rows.length - expected.length, failed: expected.length });
      const got = res
        .json()
        .errors.map((e: { line: number; code: string; message: string }) => [e.line, e.code, e.message]);
      expect(got).toEqual(expected.slice(0, 1000));
    };
    // Each row shares its client ID with one neighbour and its card with the other: one link decided per
    // set-based round (this file took 300 rounds), then row by row.
    const chain = Array.from({ length: 600 }, (_, i): [string, string] => [
      `C${Math.floor((i + 1) / 2)}`,
      `7${String(Math.floor(i / 2)).padStart(9, '0')}`,
    ]);
    await check('CHAIN-', chain);
    // Files of few keys, repeated in every way (cases, cards, no cards).
    const rows = fc.array(
      fc.tuple(
        fc.constantFrom('a', 'A', 'b', 'c', 'C', 'd', 'e'),
        fc.option(fc.constantFrom('80000001', '80000002', '80000003', '80000004'), { nil: null }),
      ),
      { minLength: 1, maxLength: 40 },
    );
    for (const [i, file] of fc.sample(rows, { numRuns: 25, seed: 20261128 }).entries()) {
      await check(`RND${i}-`, file);
    }
  });

  it('a row that differs from what exists is ACCOUNT_EXISTS, not a silent change', async () => {
    const res = await post('accounts', csv(HEADER, 'DRY-2,,9,,', 'dry-3,,,,'));
    expect(res.json().errors.map((e: { code: string }) => e.code)).toEqual([
      'ACCOUNT_EXISTS',
      'ACCOUNT_EXISTS',
    ]);
  });

  it('a row whose expiresAt differs from the imported opening is ACCOUNT_EXISTS, not unchanged', async () => {
    const first = await post('accounts', csv(HEADER, `EXP-1,,10,${FUTURE},`, 'EXP-2,,10,,'));
    expect(first.json()).toMatchObject({ created: 2, failed: 0 });
    // The same rows again, then each with another expiry: a corrected date is not "already so".
    const same = await post('accounts', csv(HEADER, `EXP-1,,10,${FUTURE},`, 'EXP-2,,10,,'));
    expect(same.json()).toMatchObject({ created: 0, unchanged: 2, failed: 0 });
    const changed = await post(
      'accounts',
      csv(HEADER, 'EXP-1,,10,2098-06-30T00:00:00Z,', `EXP-2,,10,${FUTURE},`),
      { query: 'skipInvalid=true' },
    );
    expect(changed.json()).toMatchObject({ created: 0, unchanged: 0, failed: 2 });
    const dropped = await post('accounts', csv(HEADER, 'EXP-1,,10,,'));
    expect(dropped.json()).toMatchObject({ created: 0, unchanged: 0, failed: 1 });
    expect([...changed.json().errors, ...dropped.json().errors].map((e: { code: string }) => e.code)).toEqual(
      ['ACCOUNT_EXISTS', 'ACCOUNT_EXISTS', 'ACCOUNT_EXISTS'],
    );
    const lots = await sql<{ client_id: string; expires_at: Date | null }>`
      select a.client_id, l.expires_at from lots l join accounts a on a.id = l.account_id
      where a.client_id like 'EXP-%' order by a.client_id`.execute(db);
    expect(lots.rows).toEqual([
      { client_id: 'EXP-1', expires_at: new Date(FUTURE) },
      { client_id: 'EXP-2', expires_at: null },
    ]);
  });

  it('with the card limit at 0 a new member gets no card: an error row, as Issue Card refuses it', async () => {
    const before = (
      await sql<{ value: number }>`select value from settings where key = 'cards.limit_per_account'`.execute(
        db,
      )
    ).rows[0];
    await sql`insert into settings (key, value) values ('cards.limit_per_account', 0)
      on conflict (key) do update set value = 0`.execute(db);
    try {
      const res = await post('accounts', csv(HEADER, 'LIM-1,9100000000000001,,,', 'LIM-2,,,,'), {
        query: 'skipInvalid=true',
      });
      expect(res.json()).toMatchObject({ created: 1, failed: 1 });
      expect(res.json().errors).toEqual([
        { line: 2, code: 'CARD_LIMIT_EXCEEDED', message: 'cardNumber: the card limit per account is 0' },
      ]);
      expect(await accountsLike('LIM-')).toEqual([{ client_id: 'LIM-2', balance: '0.00', cards: [] }]);
    } finally {
      await (before
        ? sql`update settings set value = ${before.value} where key = 'cards.limit_per_account'`
        : sql`delete from settings where key = 'cards.limit_per_account'`
      ).execute(db);
    }
  });

  it('concurrent imports of one file have one effect', async () => {
    const rows = Array.from(
      { length: 200 },
      (_, i) => `RACE-${i},${String(5000000000000000 + i)},${i + 1},,`,
    );
    const body = csv(HEADER, ...rows);
    const answers = await Promise.all([
      post('accounts', body),
      post('accounts', body),
      post('accounts', body),
    ]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const reports = answers.map((a) => a.json());
    expect(reports.map((r) => r.failed)).toEqual([0, 0, 0]);
    expect(reports.reduce((sum, r) => sum + r.created, 0)).toBe(200);
    expect(reports.reduce((sum, r) => sum + r.unchanged, 0)).toBe(400);
    const created = await accountsLike('RACE-');
    expect(created).toHaveLength(200);
    const total = await sql<{ s: string }>`
      select sum(balance)::text as s from accounts where client_id like 'RACE-%'`.execute(db);
    expect(total.rows[0]!.s).toBe('20100.00');
    await expectLedgerSound();
  });
});
