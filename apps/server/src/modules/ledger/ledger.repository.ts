import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { type Cents, centsText } from '../../lib/money';
import { type OperationRow, toOperation } from '../operations/operations.repository';
import type { StoredRequest } from '../pos/idempotency';
import { insertCreditLots } from './lots.sql';

/**
 * The ledger's SQL: the only statements that write operations together with the balances they justify
 * (this file for the account lock, admin adjustments, the POS claim and the steps set-based batches' statements
 * share; `*.repository.ts` beside it for the POS writes).
 */

/** Which POS request a write answers: the idempotency record it claims under its operationId. */
export interface PosRequestKey {
  operationId: string;
  posId: string;
  /** The request's hash, stored with the answer for replays. */
  hash: string;
  /** The HTTP status the answer is given (and replayed) with; pos/ decides it. */
  status: number;
}

/** The claim as stored: the key and the answer, serialised by the caller from the contract schema. */
export interface PosClaim extends PosRequestKey {
  response: unknown;
}

/**
 * The claim's INSERT, for the `q` step of each POS write's statement: the operationId key is where
 * concurrent copies of one request meet (the loser fails on it), and the later steps select `from q` so
 * the claim comes before the new operation (the lock order of every POS write).
 */
export function insertClaim(c: PosClaim) {
  return sql`insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
    values (${c.operationId}, ${c.posId}::uuid, ${c.hash}, ${c.status}, ${JSON.stringify(c.response)}::jsonb)
    returning pos_id, request_hash, status_code, response`;
}

/**
 * `insertClaim` set-based, for the `q` step of a batch's statement: the claims of its rows `x` (`writeRow`,
 * typed by `writeColumns` in its `jsonb_to_recordset`), returned with their operationIds.
 */
export const insertClaims = sql`insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      select operation_id, pos_id, request_hash, status_code, response from x
      returning operation_id, pos_id, request_hash, status_code, response`;

/**
 * What every POS write of a set-based batch stores, as its row of the statement's `x`: the operation's id,
 * the claim, the account, card and points, and the operation as its event shows it.
 */
export const writeRow = (w: { claim: PosClaim; operation: OperationRow; cardId: string }) => ({
  id: w.operation.id,
  operation_id: w.claim.operationId,
  pos_id: w.claim.posId,
  request_hash: w.claim.hash,
  status_code: w.claim.status,
  response: w.claim.response,
  account_id: w.operation.account_id,
  card_id: w.cardId,
  card_number: w.operation.card_number,
  points: w.operation.points,
  event: toOperation(w.operation),
});

/** The types of `writeRow`'s columns in a `jsonb_to_recordset`. */
export const writeColumns = sql`id uuid, operation_id text, pos_id uuid, request_hash text, status_code integer,
      response jsonb, account_id uuid, card_id uuid, card_number text, points numeric, event jsonb`;

/**
 * The `a` step of a batch's statement: each account moves once, by `set` over `accounts` and `s`, where `s`
 * is the account's rows of `x` summed (`sums`: e.g. `sum(x.points) as points`), so an account with several
 * writes in the batch moves by all of them; returning what `balancesAfter` reads. `accountIds`: the rows'
 * accounts as an array too, since joined only with x (estimated at 100 rows) the plan scanned all accounts.
 */
export const updateBatchAccounts = (
  set: RawBuilder<unknown>,
  sums: RawBuilder<unknown>,
  accountIds: readonly string[],
) => sql`
      update accounts set ${set} from (select x.account_id, ${sums} from x group by x.account_id) s
      where accounts.id = any(${accountIds}::uuid[]) and accounts.id = s.account_id
      returning accounts.id, accounts.balance, accounts.held_balance`;

/**
 * For each write of a batch, in order: what to add to its account's final figure (the `a` step's) to get the
 * figure just after that write — minus what the account's later writes in the batch `moved` it by. Exact
 * decimal text; 0 for an account's last write.
 */
export function laterOfAccount<W>(
  writes: readonly W[],
  accountOf: (w: W) => string,
  moved: (w: W) => Cents,
): string[] {
  const back = new Map<string, Cents>();
  const later: Cents[] = new Array(writes.length);
  for (let i = writes.length - 1; i >= 0; i--) {
    const account = accountOf(writes[i]!);
    const sum = back.get(account) ?? 0n;
    later[i] = sum;
    back.set(account, sum - moved(writes[i]!));
  }
  return later.map(centsText);
}

/**
 * How a set-based batch's read takes its locks: across cards it skips a row another transaction has locked
 * (it never waits, so it can neither stall behind a lock held elsewhere nor deadlock with another batch);
 * inside a card's group commit it waits, as the card's lone writes do (`inGroupCommit`).
 */
export interface BatchLocks {
  wait: boolean;
}

/** The locking clause's tail for `locks`. */
export const lockTail = (locks: BatchLocks) => (locks.wait ? sql`` : sql`skip locked`);

/** The stored answers a batch's `insertClaims` returned, in its writes' order. */
export function answersInOrder(
  rows: ReadonlyArray<StoredRequest & { operation_id: string }>,
  writes: ReadonlyArray<{ claim: PosClaim }>,
): StoredRequest[] {
  const stored = new Map(rows.map(({ operation_id, ...r }) => [operation_id, r]));
  return writes.map((w) => stored.get(w.claim.operationId)!);
}

export interface LockedAccount {
  id: string;
  /** Read under the lock: an erasure that renamed the account while this waited is seen (`isErasedClientIdOf`). */
  client_id: string;
  balance: string;
  held_balance: string;
}

/**
 * Locks the account row for a balance change. FOR NO KEY UPDATE: balance changes of one account queue
 * here (and behind a card issue's FOR UPDATE), while rows that only reference the account (new cards,
 * operations) are not blocked.
 */
export async function lockAccountForPosting(trx: Tx, accountId: string): Promise<LockedAccount | undefined> {
  const result = await sql<LockedAccount>`
    select id, client_id, balance, held_balance from accounts where id = ${accountId}::uuid for no key update`.execute(
    trx,
  );
  return result.rows[0];
}

/** The account's newest active card, which an admin operation is booked against. */
export async function findBookingCard(
  trx: Tx,
  accountId: string,
): Promise<{ id: string; number: string } | undefined> {
  return trx
    .selectFrom('cards')
    .select(['id', 'number'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface AdminPosting {
  accountId: string;
  card: { id: string; number: string } | null;
  /** Signed exact decimal text: what the balance moves by. */
  points: string;
  meta: Record<string, unknown>;
  createdBy: string;
}

/**
 * A completed `adjustment` (a credit: the contract allows only positive points), its lot and the balance
 * change it justifies, in one statement; the new balance.
 */
export async function insertAdminAdjustment(
  trx: Tx,
  p: AdminPosting,
): Promise<{ id: string; balance: string }> {
  const result = await sql<{ id: string; balance: string }>`
    with o as (
      insert into operations (type, status, points, account_id, card_id, card_number, meta, created_by)
      values ('adjustment', 'completed', ${p.points}::numeric, ${p.accountId}::uuid, ${p.card?.id ?? null}::uuid,
        ${p.card?.number ?? null}, ${JSON.stringify(p.meta)}::jsonb, ${p.createdBy})
      returning id, points, account_id, created_at as earned_at
    ),
    lot as (${insertCreditLots(sql`o`)})
    update accounts set balance = accounts.balance + o.points
    from o where accounts.id = o.account_id
    returning o.id, accounts.balance`.execute(trx);
  return result.rows[0]!;
}
