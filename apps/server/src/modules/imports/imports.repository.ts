import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../../db/transaction';

/**
 * The imports' SQL. A file's valid rows are loaded into a temporary staging table of the transaction
 * (dropped at its end), then merged set-based: a few statements per file whatever its size, instead of a
 * few round trips per row. Both tables have the columns the ledger posts from (`ledger/staged-credits.ts`):
 * line, account_id, points, reason, expires_at, post, error.
 */
export const ACCOUNTS_STAGE = 'import_accounts_stage';
export const ACCRUALS_STAGE = 'import_accruals_stage';

/**
 * Errors a report lists, the first by line; `failed` counts them all. Enough to fix a file by, and what the
 * server holds of a report whatever the file's size.
 */
export const REPORTED_ERRORS = 1000;

/**
 * Files from this many rows on are merged as bulk work (`planForBulk`, `refreshTableStatistics`). Below it the
 * planner's own choices are fast, and the bulk settings cost more than the merge: at 833,000 accounts a 10-row
 * member file took 0.7–0.8 s with them and 45–69 ms without (a hash join reads the whole accounts and cards
 * tables where an index finds ten, and ANALYZE samples 30,000 rows), a 500-row one 1.1–1.2 s against 0.36–0.38
 * s. At 2,000 rows nested loops over the staged rows already cost bulk credits twice as much, at 5,000 members
 * three times (BENCHMARKS.md "Small files"); the threshold sits between the sizes measured, not at a measured
 * crossing.
 */
export const BULK_ROWS = 1000;

/**
 * Plans the merge's joins of a file of `BULK_ROWS` or more as hash joins for the rest of the transaction.
 * Its statements join thousands of staged rows with CTE results (which the planner estimates at one row)
 * and, on a fresh database, with tables that have no statistics yet; a nested loop planned for one row then
 * runs once per row over the other side: quadratic (of 5,000 rows, one such join alone took 10 s). Hash joins are linear whatever
 * the estimates.
 *
 * JIT off for the same transaction: a disabled nested loop still costs 10^10 in the planner's sums, so every
 * statement of the merge, the derived triggers' statements included, passed jit_above_cost and was compiled
 * with inlining and optimisation: 300–370 ms of JIT for a statement that ran in 10–60 ms, about a third of a
 * 100,000-row import (auto_explain, bench/imports.ts with BENCH_EXPLAIN=1).
 */
export async function planForBulk(trx: Tx): Promise<void> {
  await sql`set local enable_nestloop = off`.execute(trx);
  await sql`set local jit = off`.execute(trx);
}

/**
 * Statistics for the tables a member file of `BULK_ROWS` or more just grew, inside its transaction (ANALYZE
 * counts the transaction's own new rows); smaller files leave them to autovacuum (PGlite has none: there the
 * next file of `BULK_ROWS` or more refreshes them). On a young database the planner otherwise still sees the
 * tables as nearly empty and reads the new accounts' cards with a bitmap of every active card per account:
 * quadratic in the file (100,000 rows did not finish in 10 minutes; bench/imports.ts).
 */
export async function refreshTableStatistics(trx: Tx): Promise<void> {
  await sql`analyze accounts, cards`.execute(trx);
}

/**
 * A staging table for one import's transaction (dropped at its end): a spooled row, the account it resolves
 * to and whether it is posted, plus a kind's own columns (`extra`, each followed by a comma).
 */
export async function createStage(trx: Tx, table: string, extra: RawBuilder<unknown> = sql``): Promise<void> {
  await sql`
    create temporary table ${sql.table(table)} (
      line integer primary key,
      client_id text,
      card_number text,
      points numeric(14, 2),
      expires_at timestamptz,
      reason text,
      account_id uuid,
      ${extra}
      post boolean not null default false,
      error text,
      message text
    ) on commit drop`.execute(trx);
}

/**
 * Fills the transaction's staging table from the import's spooled rows (`import_rows`; read again when
 * the transaction is retried), then analyses it: a temporary table has no statistics until then, and
 * without them the merge's joins are planned for a handful of rows.
 */
export async function loadStage(trx: Tx, table: string, importId: string): Promise<void> {
  await sql`
    insert into ${sql.table(table)} (line, client_id, card_number, points, expires_at, reason, error, message)
    select line, client_id, card_number, points, expires_at, reason, error, message
    from import_rows where import_id = ${importId}::uuid`.execute(trx);
  await sql`analyze ${sql.table(table)}`.execute(trx);
}

export async function stageAccounts(trx: Tx, importId: string): Promise<void> {
  await createStage(
    trx,
    ACCOUNTS_STAGE,
    sql`first_in_file boolean not null default false, created boolean not null default false,`,
  );
  await loadStage(trx, ACCOUNTS_STAGE, importId);
}

/**
 * One file cannot create one account twice: a row whose client ID (in any case) or card number is on an
 * earlier accepted row of the file is an error row naming that line (client ID first). Accepted means "no
 * earlier accepted row shares either", which depends on the rows before. One set-based statement accepts
 * every row that is the first of its client ID and of its card number: all of a file without repeats. The
 * rows left (repeats, and rows whose earlier namesake may itself be refused) are decided one by one in line
 * order (`decideOpenRowsInOrder`). Before, set-based rounds decided one more link of a chain of repeats each
 * (a chained file of 6,400 rows took a minute, 100,000 would have taken hours), and could name the card's
 * line where an earlier row accepted in a later round had the client ID.
 */
export async function refuseRepeatsInFile(trx: Tx): Promise<void> {
  // Window functions, not a per-row subquery: "no earlier row" as a subquery with an OR was planned per row
  // (5,000 rows: 15 s); the first line of each key is one sort.
  await sql`
    update import_accounts_stage s set first_in_file = true
    from (
      select line,
        min(line) over (partition by lower(client_id)) as first_client,
        case when card_number is null then line
          else min(line) over (partition by card_number) end as first_card
      from import_accounts_stage where error is null
    ) w
    where s.line = w.line and w.first_client = w.line and w.first_card = w.line`.execute(trx);
  const open = await sql<{ open: boolean }>`
    select exists (select 1 from import_accounts_stage where error is null and not first_in_file) as open`.execute(
    trx,
  );
  if (open.rows[0]!.open) await decideOpenRowsInOrder(trx);
}

/**
 * The open rows decided one by one in line order against the keys taken so far: those of the rows accepted
 * already (each the first of both its keys, so no open row sharing one is earlier), then each accepted here.
 * A key lookup and a write per row.
 */
async function decideOpenRowsInOrder(trx: Tx): Promise<void> {
  await sql`
    do $$
    declare
      r record;
      hit integer;
    begin
      create temporary table import_taken_clients (client text primary key, line integer not null) on commit drop;
      create temporary table import_taken_cards (card text primary key, line integer not null) on commit drop;
      insert into import_taken_clients select lower(client_id), line from import_accounts_stage where first_in_file;
      insert into import_taken_cards select card_number, line from import_accounts_stage
        where first_in_file and card_number is not null;
      for r in select line, lower(client_id) as client, card_number from import_accounts_stage
        where error is null and not first_in_file order by line
      loop
        select t.line into hit from import_taken_clients t where t.client = r.client;
        if found then
          update import_accounts_stage set error = 'ACCOUNT_EXISTS', message = 'clientId is also on line ' || hit
            where line = r.line;
          continue;
        end if;
        if r.card_number is not null then
          select t.line into hit from import_taken_cards t where t.card = r.card_number;
          if found then
            update import_accounts_stage set error = 'CARD_EXISTS', message = 'cardNumber is also on line ' || hit
              where line = r.line;
            continue;
          end if;
          insert into import_taken_cards values (r.card_number, r.line);
        end if;
        insert into import_taken_clients values (r.client, r.line);
        update import_accounts_stage set first_in_file = true where line = r.line;
      end loop;
      drop table import_taken_clients, import_taken_cards;
    end $$`.execute(trx);
}

/**
 * A row that would open a new account with points expiring at `now` or before is refused: an opening lot
 * already expired is points nobody can spend. Only such a row: the same row imported while its date was
 * ahead is unchanged after it (`classifyExisting`), and a re-run of a members file must keep working.
 * Before the repeats in the file are looked at, as the row schema's checks are.
 */
export async function refuseExpiredOpenings(trx: Tx, now: Date, message: string): Promise<void> {
  await sql`
    update import_accounts_stage s set error = 'VALIDATION_ERROR', message = ${message}
    where s.error is null and s.expires_at <= ${now.toISOString()}::timestamptz
      and not exists (select 1 from accounts a where lower(a.client_id) = lower(s.client_id))`.execute(trx);
}

/** A card number issued to an account of another client cannot be imported for this one. */
export async function refuseTakenCards(trx: Tx): Promise<void> {
  await sql`
    update import_accounts_stage s set error = 'CARD_EXISTS'
    from cards c join accounts a on a.id = c.account_id
    where s.error is null and c.number = s.card_number and lower(a.client_id) <> lower(s.client_id)`.execute(
    trx,
  );
}

/**
 * `erased_client_ids e` holds the key of staged row `s`'s client ID: keyed (migration 041), or as a server of
 * an earlier version still writes it during a rolling upgrade (keyed when a server next starts).
 */
function isErasedKey(keySecret: string) {
  return sql`e.key in (erased_client_key(s.client_id, ${keySecret}), erased_client_key(s.client_id))`;
}

/**
 * A row whose client ID was an erased member's (and is no account's now) is refused: re-running the file the
 * member came from would otherwise create them again, opening points and all (migration 033).
 */
export async function refuseErasedClients(trx: Tx, keySecret: string): Promise<void> {
  await sql`
    update import_accounts_stage s
    set error = 'ACCOUNT_EXISTS', message = 'clientId belongs to an erased member'
    where s.error is null
      and exists (select 1 from erased_client_ids e where ${isErasedKey(keySecret)})
      and not exists (select 1 from accounts a where lower(a.client_id) = lower(s.client_id))`.execute(trx);
}

/**
 * A card for a new member when the card limit per account is 0 (cards.limit_per_account): issuing it broke the
 * limit that Issue Card keeps (any other limit a new account's one card keeps).
 */
export async function refuseCardsOverLimit(trx: Tx): Promise<void> {
  await sql`
    update import_accounts_stage s
    set error = 'CARD_LIMIT_EXCEEDED', message = 'cardNumber: the card limit per account is 0'
    where s.error is null and s.card_number is not null
      and (select value from settings where key = 'cards.limit_per_account') = 0
      and not exists (select 1 from accounts a where lower(a.client_id) = lower(s.client_id))`.execute(trx);
}

/**
 * Creates the accounts of rows whose client ID is new. A concurrent import of the same client IDs makes
 * this statement wait for it; once it committed, its accounts are conflicts here, not duplicates. Only the
 * valid row is marked as the creator: an error row may carry the same client ID (a repeat in the file), and
 * marked too it issued its own card and posted its own points (and with a card already taken, took the new
 * account down with it: a 500).
 */
export async function insertNewAccounts(trx: Tx): Promise<void> {
  await sql`
    with created as (
      insert into accounts (client_id)
      select client_id from import_accounts_stage where error is null order by line
      on conflict do nothing
      returning id, client_id
    )
    update import_accounts_stage s set account_id = created.id, created = true
    from created where s.client_id = created.client_id and s.error is null`.execute(trx);
}

/**
 * The accounts just created for client IDs that were erased meanwhile are removed again, their rows refused
 * as `refuseErasedClients` refuses them: an erasure committing after that check let the insert through, and
 * one still renaming the account made the insert wait on the unique client ID until it committed (the
 * member came back beside the erased account, opening points and all). Either way this later statement sees
 * the erasure's key, which it commits with the rename; an insert that conflicted with the account before
 * its rename created nothing (that file ran before the erasure).
 */
export async function refuseErasedMeanwhile(trx: Tx, keySecret: string): Promise<void> {
  await sql`
    with removed as (
      delete from accounts a using import_accounts_stage s
      where s.created and a.id = s.account_id
        and exists (select 1 from erased_client_ids e where ${isErasedKey(keySecret)})
      returning a.id
    )
    update import_accounts_stage s
    set error = 'ACCOUNT_EXISTS', message = 'clientId belongs to an erased member', created = false,
      account_id = null
    from removed where s.account_id = removed.id`.execute(trx);
}

/**
 * Issues the given card numbers to the new accounts. A number a concurrent writer took meanwhile makes its
 * row an error, and that row's new account is removed again, so an error row writes nothing.
 */
export async function issueCards(trx: Tx): Promise<void> {
  await sql`
    with issued as (
      insert into cards (number, account_id, status, issued_at)
      select card_number, account_id, 'active', now() from import_accounts_stage
      where created and card_number is not null order by line
      on conflict (number) do nothing
      returning number
    )
    update import_accounts_stage s set error = 'CARD_EXISTS', created = false
    where s.created and s.card_number is not null
      and not exists (select 1 from issued where issued.number = s.card_number)`.execute(trx);
  await sql`
    delete from accounts where id in (
      select account_id from import_accounts_stage where not created and error = 'CARD_EXISTS' and account_id is not null)
  `.execute(trx);
}

/**
 * Rows whose client ID exists: the same row imported before (same client ID, its card on that account,
 * the same opening points expiring at the same time) is unchanged; anything else is ACCOUNT_EXISTS. The
 * expiry counts: a file whose dates were corrected is not "already so" (its opening lot keeps the first
 * date), and answering unchanged would hide that nothing was applied. A row whose account is gone was
 * erased meanwhile: refused as `refuseErasedClients` refuses it.
 */
export async function classifyExisting(trx: Tx): Promise<void> {
  // Set-based, not a subquery per row: on a fresh database the tables have no statistics yet, and a
  // per-row subquery may then be planned over the wrong index (a scan of every adjustment per row).
  await sql`
    with existing as (
      select s.line, a.id, a.client_id = s.client_id as same_client,
        s.card_number is null or exists (
          select 1 from cards c where c.number = s.card_number and c.account_id = a.id) as same_card,
        coalesce(s.points, 0) as points, s.expires_at
      from import_accounts_stage s join accounts a on lower(a.client_id) = lower(s.client_id)
      where s.error is null and not s.created
    ), opening as (
      -- An account has at most one opening (only a row that created it posts one).
      select o.account_id, sum(o.points) as points, max((o.meta ->> 'expiresAt')::timestamptz) as expires_at
      from operations o
      where o.account_id in (select id from existing) and o.type = 'adjustment'
        and o.meta ->> 'source' = 'import-opening'
      group by o.account_id
    )
    update import_accounts_stage s set account_id = e.id,
      error = case when e.same_client and e.same_card and e.points = coalesce(opening.points, 0)
          and e.expires_at is not distinct from opening.expires_at
        then null else 'ACCOUNT_EXISTS' end
    from existing e left join opening on opening.account_id = e.id
    where s.line = e.line`.execute(trx);
  // A row neither created nor found here: an erasure renamed its account after the insert met it under its
  // client ID (no other write renames or removes an account). As when the file comes after the erasure.
  await sql`update import_accounts_stage
    set error = 'ACCOUNT_EXISTS', message = 'clientId belongs to an erased member'
    where error is null and not created and account_id is null`.execute(trx);
  await sql`update import_accounts_stage set post = true
    where created and error is null and points > 0`.execute(trx);
}

export interface StageOutcome {
  created: number;
  unchanged: number;
  /** Every error row. */
  failed: number;
  /** The first REPORTED_ERRORS of them by line; `message` null: the code's catalogue message. */
  errors: { line: number; code: string; message: string | null }[];
}

/** The error rows of a staging table: all counted, the first REPORTED_ERRORS listed. */
export async function stageErrors(trx: Tx, table: string): Promise<Pick<StageOutcome, 'failed' | 'errors'>> {
  const failed = await sql<{ failed: number }>`
    select count(*)::int as failed from ${sql.table(table)} where error is not null`.execute(trx);
  const errors = await sql<{ line: number; code: string; message: string | null }>`
    select line, error as code, message from ${sql.table(table)} where error is not null
    order by line limit ${REPORTED_ERRORS}`.execute(trx);
  return { failed: failed.rows[0]!.failed, errors: errors.rows };
}

export async function accountsOutcome(trx: Tx): Promise<StageOutcome> {
  const counts = await sql<{ created: number; unchanged: number }>`
    select count(*) filter (where created and error is null)::int as created,
      count(*) filter (where not created and error is null)::int as unchanged
    from import_accounts_stage`.execute(trx);
  return { ...counts.rows[0]!, ...(await stageErrors(trx, ACCOUNTS_STAGE)) };
}

/**
 * What the merge created, a page at a time in file order after `afterLine`: the new accounts and the card
 * numbers issued to them.
 */
export async function createdMembers(
  trx: Tx,
  w: { afterLine: number; limit: number },
): Promise<{ line: number; accountId: string; cardNumber: string | null }[]> {
  const rows = await sql<{ line: number; account_id: string; card_number: string | null }>`
    select line, account_id, card_number from import_accounts_stage
    where created and error is null and line > ${w.afterLine}
    order by line limit ${w.limit}`.execute(trx);
  return rows.rows.map((r) => ({ line: r.line, accountId: r.account_id, cardNumber: r.card_number }));
}
