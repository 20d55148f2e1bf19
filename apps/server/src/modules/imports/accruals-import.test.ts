import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { whileLocked } from '../pos/pos.fixtures';
import { importAccruals } from './accruals-import.service';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4 "Bulk credits".
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);

const members = await post(
  'accounts',
  csv('clientId,cardNumber,points', 'BULK-1,6000000000000001,10', 'BULK-2,6000000000000002,', 'BULK-3,,'),
);
expect(members.json()).toMatchObject({ created: 3, failed: 0 });

const balances = async () =>
  (
    await sql<{ client_id: string; balance: string }>`
      select client_id, balance::text as balance from accounts where client_id like 'BULK-%' order by client_id`.execute(
      db,
    )
  ).rows.map((r) => `${r.client_id}=${r.balance}`);
const expectLedgerSound = async () => expect(ledgerIsSound(await verifyLedger(db))).toBe(true);

describe('bulk credits', () => {
  const file = csv('clientId,points,reason', 'BULK-1,5,Goodwill', 'bulk-2,2.5,', 'BULK-1,1,Again');

  it('a dry run answers the counts and credits nothing', async () => {
    const res = await post('accruals', file, { query: 'dryRun=true' });
    expect(res.json()).toEqual({ dryRun: true, rows: 3, created: 3, unchanged: 0, failed: 0, errors: [] });
    expect(await balances()).toEqual(['BULK-1=10.00', 'BULK-2=0.00', 'BULK-3=0.00']);
  });

  it('the same file twice credits once, and the second answer is the first', async () => {
    const first = await post('accruals', file);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ dryRun: false, rows: 3, created: 3, failed: 0 });
    expect(await balances()).toEqual(['BULK-1=16.00', 'BULK-2=2.50', 'BULK-3=0.00']);
    const again = await post('accruals', file);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await balances()).toEqual(['BULK-1=16.00', 'BULK-2=2.50', 'BULK-3=0.00']);
    const ops = await sql<{ n: string }>`
      select count(*) as n from operations where meta ->> 'source' = 'import-credit'`.execute(db);
    expect(Number(ops.rows[0]!.n)).toBe(3);
    // One points.adjusted per credit (the members file before had one opening balance: BULK-1's 10).
    const events = await sql<{
      n: string;
    }>`select count(*) as n from events where type = 'points.adjusted'`.execute(db);
    expect(Number(events.rows[0]!.n)).toBe(4);
    await expectLedgerSound();
  });

  it('a different file under the same key is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const headers = { 'idempotency-key': 'campaign-42' };
    const first = await post('accruals', csv('cardNumber,points', '6000000000000002,1'), { headers });
    expect(first.json()).toMatchObject({ created: 1 });
    const other = await post('accruals', csv('cardNumber,points', '6000000000000002,2'), { headers });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balances()).toEqual(['BULK-1=16.00', 'BULK-2=3.50', 'BULK-3=0.00']);
  });

  it('concurrent posts of one file credit once', async () => {
    const body = csv('clientId,points', 'BULK-3,4', 'BULK-3,6');
    const answers = await Promise.all([
      post('accruals', body),
      post('accruals', body),
      post('accruals', body),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(await balances()).toContain('BULK-3=10.00');
    await expectLedgerSound();
  });

  it('unknown accounts, bad rows and the balance limit are error rows; nothing is written without skipInvalid', async () => {
    const body = csv(
      'clientId,points',
      'BULK-1,1',
      'NOBODY,1',
      'BULK-2,0',
      'BULK-3,999999999999',
      'BULK-3,1',
    );
    const refused = await post('accruals', body);
    expect(refused.json()).toMatchObject({ created: 0, failed: 3 });
    expect(refused.json().errors.map((e: { line: number; code: string }) => `${e.line}:${e.code}`)).toEqual([
      '3:ACCOUNT_NOT_FOUND',
      '4:VALIDATION_ERROR',
      '5:VALIDATION_ERROR',
    ]);
    expect(await balances()).toEqual(['BULK-1=16.00', 'BULK-2=3.50', 'BULK-3=10.00']);
    // The refused file left its key free: the same file with skipInvalid is another request and runs.
    const skipped = await post('accruals', body, { query: 'skipInvalid=true' });
    expect(skipped.json()).toMatchObject({ created: 2, failed: 3 });
    expect(await balances()).toEqual(['BULK-1=17.00', 'BULK-2=3.50', 'BULK-3=11.00']);
  });

  it('credits that would pass the balance limit are refused per account, in a dry run too', async () => {
    const body = csv(
      'clientId,points',
      'BULK-2,1000000000',
      ...Array.from({ length: 1000 }, () => 'BULK-2,1000000000'),
    );
    for (const query of ['dryRun=true', 'skipInvalid=true']) {
      const res = await post('accruals', body, { query });
      expect(res.json()).toMatchObject({ created: 0, failed: 1001 });
      expect(res.json().errors[0]).toMatchObject({ line: 2, code: 'BALANCE_LIMIT_EXCEEDED' });
    }
    await expectLedgerSound();
  });

  it.runIf(ctx.database.kind === 'postgres')(
    "a dry run locks none of the file's accounts: it answers while a till's write holds one",
    async () => {
      const [account] = (
        await sql<{ id: string }>`select id from accounts where client_id = 'BULK-3'`.execute(db)
      ).rows;
      const before = await balances();
      // Before, a dry run took every account of the file for its posting (then rolled back): it waited here.
      const res = await whileLocked(db, { table: 'accounts', id: account!.id }, () =>
        post('accruals', csv('clientId,points', 'BULK-3,4', 'BULK-1,1'), { query: 'dryRun=true' }),
      );
      expect(res.json()).toMatchObject({ dryRun: true, created: 2, failed: 0 });
      expect(await balances()).toEqual(before);
    },
  );

  it('each import leaves one audit entry with its counts', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/audit?targetType=import&size=50',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const entries = res.json().content;
    // Each committed import: members, the first bulk file, the keyed file, the concurrent file once, the
    // skipInvalid file and the over-limit one (which wrote only its audit entry). Refused files and dry
    // runs rolled back, their audit entry with them.
    expect(entries).toHaveLength(6);
    expect(entries[0].dest).toMatchObject({ kind: 'accruals', rows: 1001, created: 0, failed: 1001 });
    expect(entries[1].dest).toMatchObject({ kind: 'accruals', rows: 5, created: 2, failed: 3 });
    expect(entries[5]).toMatchObject({ targetType: 'import', message: expect.stringContaining('3 created') });
  });

  it("each credit's points.adjusted carries the balances after that credit, as one by one", async () => {
    const member = await post('accounts', csv('clientId,points', 'RUN-1,10', 'RUN-2,'));
    expect(member.json()).toMatchObject({ created: 2, failed: 0 });
    const last = await sql<{ id: string }>`select coalesce(max(id), 0)::text as id from events`.execute(db);
    const res = await post(
      'accruals',
      csv('clientId,points', 'RUN-1,100', 'RUN-2,7', 'RUN-1,50', 'RUN-1,0.25', 'RUN-2,1'),
    );
    expect(res.json()).toMatchObject({ created: 5, failed: 0 });
    const events = await sql<{ data: { points: string; balance: number; availableBalance: number } }>`
      select data from events where type = 'points.adjusted' and id > ${last.rows[0]!.id}::bigint
      order by id`.execute(db);
    // Two credits of one account in one file used to carry the balance after the whole file, both of them.
    expect(events.rows.map((e) => [e.data.points, e.data.balance, e.data.availableBalance])).toEqual([
      ['100.00', 110, 110],
      ['7.00', 7, 7],
      ['50.00', 160, 160],
      ['0.25', 160.25, 160.25],
      ['1.00', 8, 8],
    ]);

    // With a pending period the credits are not available yet: each event's availableBalance stays.
    const settings = (pending_days: number | null) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/settings',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { points: { pending_days } },
      });
    expect((await settings(7)).statusCode).toBe(200);
    const pending = await post('accruals', csv('clientId,points', 'RUN-2,3', 'RUN-2,2'));
    expect((await settings(null)).statusCode).toBe(200);
    expect(pending.json()).toMatchObject({ created: 2, failed: 0 });
    const later = await sql<{ data: { balance: number; availableBalance: number } }>`
      select data from events where type = 'points.adjusted' order by id desc limit 2`.execute(db);
    expect(later.rows.reverse().map((e) => [e.data.balance, e.data.availableBalance])).toEqual([
      [11, 8],
      [13, 8],
    ]);
    await expectLedgerSound();
  });
  it("the key is the programme's: the same file from another user, or after its poster is deleted, is answered as the first", async () => {
    const body = csv('clientId,points', 'BULK-2,7');
    const manager = await ctx.app.inject({
      method: 'POST',
      url: '/auth/api/v1/users',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { username: 'bulk-poster', password: PASSWORD, role: 'MANAGER' },
    });
    expect(manager.statusCode, manager.body).toBe(201);
    const token = (await ctx.login('bulk-poster')).json().token as string;
    const first = await post('accruals', body, { token });
    expect(first.json()).toMatchObject({ created: 1 });
    const byAdmin = await post('accruals', body, { token: ctx.tokens.ADMIN });
    expect(byAdmin.headers['idempotent-replayed']).toBe('true');
    expect(byAdmin.body).toBe(first.body);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/auth/api/v1/users/${manager.json().id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const afterDelete = await post('accruals', body);
    expect(afterDelete.headers['idempotent-replayed']).toBe('true');
    expect(await balances()).toContain('BULK-2=10.50');
    // Another user's file under a key already used is refused as the same user's would be.
    const other = await post('accruals', csv('clientId,points', 'BULK-2,1'), {
      token: ctx.tokens.ADMIN,
      headers: { 'idempotency-key': 'campaign-42' },
    });
    expect(other.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balances()).toContain('BULK-2=10.50');
    await expectLedgerSound();
  });
  it('a file whose spooled rows were lost while it arrived (a database restart empties them) is refused whole, and can be sent again', async () => {
    const text = csv('clientId,points', ...Array.from({ length: 3000 }, () => 'BULK-3,0.01'));
    // After 2,500 rows: the first 2,000 are spooled before the rest is asked for.
    let cut = 0;
    for (let i = 0; i < 2501; i++) cut = text.indexOf('\n', cut) + 1;
    const before = await balances();
    async function* body() {
      yield text.slice(0, cut);
      const spooled = async () =>
        (await sql<{ n: number }>`select count(*)::int as n from import_rows`.execute(db)).rows[0]!.n;
      for (let i = 0; i < 2000 && (await spooled()) < 2000; i++) await new Promise(setImmediate);
      // What crash recovery does to the unlogged spool.
      await sql`truncate import_rows`.execute(db);
      yield text.slice(cut);
    }
    const actor = { id: ctx.users.MANAGER, username: 'manager', role: 'MANAGER' as const };
    const lost = importAccruals(db, actor, Readable.from(body(), { highWaterMark: 1 }), {
      dryRun: false,
      skipInvalid: false,
      maxBytes: 10_000_000,
      keySecret: 'test-key-secret',
    });
    await expect(lost).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: /not received whole/ });
    expect(await balances()).toEqual(before);
    const again = await post('accruals', text);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json()).toMatchObject({ rows: 3000, created: 3000, failed: 0 });
    await expectLedgerSound();
  });
});
