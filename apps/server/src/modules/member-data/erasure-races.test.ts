import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { csv, importer } from '../imports/imports.fixtures';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { lockWaits, whileLocked } from '../pos/pos.fixtures';

// An erasure racing an import of the same member (PROGRAMME-API §4): the import must end as if it ran
// wholly before or wholly after the erasure, never bring the member back or keep their free text.
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);

const accountOf = async (clientId: string) =>
  (await sql<{ id: string }>`select id from accounts where client_id = ${clientId}`.execute(db)).rows[0]!.id;

const erase = (accountId: string, confirm: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/accounts/${accountId}/erase`,
    headers: bearer(ctx.tokens.ADMIN),
    payload: { confirm },
  });

const waitForLockWaits = (n: number) =>
  vi.waitFor(async () => expect(await lockWaits(db)).toBe(n), { timeout: 60_000, interval: 10 });

/**
 * Erases the member while `send` runs against it, the erasure held just before it commits: the test's own
 * transaction locks the audit counters of accounts (one row per writer shard), which the erasure's audit entry,
 * its last write, adds to. By then the account is renamed, its client ID remembered as erased and its reasons
 * cleared, all under the account's lock. `send` starts once the erasure waits there, and the erasure is let go
 * once `send` waits for it too: the import's write in between is the race. Answers both responses.
 */
async function raceErasure(
  accountId: string,
  confirm: string,
  send: () => Promise<LightMyRequestResponse>,
): Promise<[LightMyRequestResponse, LightMyRequestResponse]> {
  await sql`insert into audit_counts (target_type, shard, n)
    select 'account', s, 0 from generate_series(0, 63) s on conflict do nothing`.execute(db);
  return db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    let open = true;
    try {
      await sql`select 1 from audit_counts where target_type = 'account' for update`.execute(conn);
      const erasing = erase(accountId, confirm);
      await waitForLockWaits(1);
      const sent = send();
      await waitForLockWaits(2);
      open = false;
      await sql`commit`.execute(conn);
      return [await erasing, await sent];
    } finally {
      if (open) await sql`rollback`.execute(conn).catch(() => undefined);
    }
  });
}

const expectLedgerSound = async () => expect(ledgerIsSound(await verifyLedger(db))).toBe(true);

describe('an erasure racing an import of the same member', () => {
  it.runIf(ctx.database.kind === 'postgres')(
    'a members file that waited on the erasure does not create the member again',
    async () => {
      const first = await post(
        'accounts',
        csv('clientId,cardNumber,points,expiresAt,reason', 'Jane.Race,,100,,'),
      );
      expect(first.json()).toMatchObject({ created: 1, failed: 0 });
      const janeId = await accountOf('Jane.Race');
      const file = csv(
        'clientId,cardNumber,points,expiresAt,reason',
        'Jane.Race,6000000000009301,100,,',
        'Race.Other,,3,,',
      );
      // The import's insert of Jane.Race waits on the unique client ID the erasure is renaming.
      const [erased, imported] = await raceErasure(janeId, 'Jane.Race', () =>
        post('accounts', file, { query: 'skipInvalid=true' }),
      );
      expect(erased.statusCode, erased.body).toBe(200);
      // As when sent after the erasure: the row is refused, and it wrote nothing.
      expect(imported.json()).toMatchObject({
        created: 1,
        failed: 1,
        errors: [{ line: 2, code: 'ACCOUNT_EXISTS', message: 'clientId belongs to an erased member' }],
      });
      const accounts = await sql<{ client_id: string; balance: string }>`
        select client_id, balance::text as balance from accounts
        where id = ${janeId}::uuid or lower(client_id) in ('jane.race', 'race.other')`.execute(db);
      expect(accounts.rows).toEqual(
        expect.arrayContaining([
          { client_id: erased.json().clientId, balance: '100.00' },
          { client_id: 'Race.Other', balance: '3.00' },
        ]),
      );
      expect(accounts.rows).toHaveLength(2);
      const card = await sql`select 1 from cards where number = '6000000000009301'`.execute(db);
      expect(card.rows).toEqual([]);
      const events = await sql<{ n: number }>`
        select count(*)::int as n from events where data::text ilike '%Jane.Race%'`.execute(db);
      expect(events.rows[0]!.n).toBe(0);
      await expectLedgerSound();
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'a members file that met the member before the erasure renamed them does not answer them unchanged',
    async () => {
      const first = await post('accounts', csv('clientId,points', 'Jim.Race,5', 'Race.Holder,'));
      expect(first.json()).toMatchObject({ created: 2, failed: 0 });
      const [jimId, holderId] = [await accountOf('Jim.Race'), await accountOf('Race.Holder')];
      const card = '6000000000009302';
      const file = csv('clientId,cardNumber,points', 'Jim.Race,,5', `Race.Late,${card},`);
      const imported = await whileLocked(db, { table: 'accounts', id: jimId }, async (unlock) => {
        // The erasure waits for Jim's lock; the import meets Jim under his client ID (nothing to create),
        // then waits to issue a card number another writer is issuing meanwhile. Jim is erased before
        // that writer rolls back and lets the import go on.
        const erasing = erase(jimId, 'Jim.Race');
        await waitForLockWaits(1);
        return db.connection().execute(async (conn) => {
          await sql`begin`.execute(conn);
          try {
            await sql`insert into cards (number, account_id, status) values (${card}, ${holderId}::uuid, 'active')`.execute(
              conn,
            );
            const importing = post('accounts', file, { query: 'skipInvalid=true' });
            await waitForLockWaits(2);
            await unlock();
            expect((await erasing).statusCode).toBe(200);
            // Answered once the card's transaction is rolled back (below).
            return importing;
          } finally {
            await sql`rollback`.execute(conn);
          }
        });
      });
      // As when sent after the erasure (before it, the row was unchanged, and is no longer).
      expect(imported.json()).toMatchObject({
        created: 1,
        unchanged: 0,
        failed: 1,
        errors: [{ line: 2, code: 'ACCOUNT_EXISTS', message: 'clientId belongs to an erased member' }],
      });
      await expectLedgerSound();
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    "a bulk credit by client ID that waited on the erasure's lock is not booked to the erased account",
    async () => {
      const members = await post('accounts', csv('clientId,points', 'John.Race,', 'Race.Credited,'));
      expect(members.json()).toMatchObject({ created: 2, failed: 0 });
      const johnId = await accountOf('John.Race');
      const REASON = 'Apology for John Race phone 555-0100';
      const file = csv('clientId,points,reason', `John.Race,5,${REASON}`, 'Race.Credited,2,Goodwill');
      // The credit waits on the account the erasure holds locked.
      const [erased, imported] = await raceErasure(johnId, 'John.Race', () =>
        post('accruals', file, { query: 'skipInvalid=true' }),
      );
      expect(erased.statusCode, erased.body).toBe(200);
      // As when sent after the erasure: no account has that client ID any more.
      expect(imported.json()).toMatchObject({
        created: 1,
        failed: 1,
        errors: [{ line: 2, code: 'ACCOUNT_NOT_FOUND' }],
      });
      const balances = await sql<{ erased: boolean; balance: string }>`
        select id = ${johnId}::uuid as erased, balance::text as balance from accounts
        where id = ${johnId}::uuid or client_id = 'Race.Credited' order by 1`.execute(db);
      expect(balances.rows).toEqual([
        { erased: false, balance: '2.00' },
        { erased: true, balance: '0.00' },
      ]);
      const traces = await sql<{ n: number }>`
        select (select count(*) from operations where meta::text ilike '%John Race%')
          + (select count(*) from events where data::text ilike '%John Race%') as n`.execute(db);
      expect(Number(traces.rows[0]!.n)).toBe(0);
      await expectLedgerSound();
    },
  );
});
