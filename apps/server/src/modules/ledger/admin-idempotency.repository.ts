import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../../db/transaction';

/*
 * The admin writes' Idempotency-Keys (manual accrual, bulk credit files, and the admin creates through
 * `admin-idempotency.ts`: an account, a card issued, a ruleset, a POS key, a webhook endpoint): a key is
 * claimed in the write's transaction and its answer stored there, so a retry after a lost answer replays it
 * and never credits or creates twice.
 * Here, beside the POS operationId claims, because the ledger is the one writer of idempotency records.
 */

export interface StoredAnswer {
  request_hash: string;
  status_code: number;
  response: unknown;
}

/**
 * Whose Idempotency-Key it is. A user's (manual accrual: two users' keys never meet), or the programme's for
 * bulk credit files (PROGRAMME-API §4: the same file again returns the first answer, whoever posts it, so a
 * second manager posting the file, or anyone after its first poster was deleted, never credits it twice).
 */
export type KeyScope = { userId: string } | 'bulk-credits';

interface Keyed {
  /** The INSERT of a claim with its request hash, doing nothing when the key is taken. */
  claim: (hash: string) => RawBuilder<unknown>;
  table: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
}

function keyed(scope: KeyScope, key: string): Keyed {
  if (scope === 'bulk-credits') {
    return {
      claim: (hash) => sql`insert into bulk_credit_keys (key, request_hash) values (${key}, ${hash})
        on conflict (key) do nothing`,
      table: sql.table('bulk_credit_keys'),
      where: sql`key = ${key}`,
    };
  }
  return {
    claim: (hash) => sql`insert into idempotency_keys (user_id, key, request_hash)
      values (${scope.userId}::uuid, ${key}, ${hash}) on conflict (user_id, key) do nothing`,
    table: sql.table('idempotency_keys'),
    where: sql`user_id = ${scope.userId}::uuid and key = ${key}`,
  };
}

/**
 * Claims the key for this request, or returns the answer of the request that claimed it first. A concurrent
 * request with the same key waits here until the first one commits (or rolls back, and then claims it itself).
 */
export async function claimKey(
  trx: Tx,
  w: { scope: KeyScope; key: string; hash: string },
): Promise<StoredAnswer | undefined> {
  const k = keyed(w.scope, w.key);
  const claimed = await sql`${k.claim(w.hash)} returning key`.execute(trx);
  if (claimed.rows.length > 0) return undefined;
  const existing = await sql<StoredAnswer>`
    select request_hash, status_code, response from ${k.table} where ${k.where}`.execute(trx);
  return existing.rows[0]!;
}

/** The claimed key's answer, committed with the work it answers for. */
export async function storeAnswer(
  trx: Tx,
  w: { scope: KeyScope; key: string; status: number; body: unknown },
): Promise<void> {
  const k = keyed(w.scope, w.key);
  await sql`update ${k.table} set status_code = ${w.status}, response = ${JSON.stringify(w.body)}::jsonb
    where ${k.where}`.execute(trx);
}

/** The answer already stored under the key, without claiming it (a dry run's look). */
export async function findStoredAnswer(
  trx: Tx,
  w: { scope: KeyScope; key: string },
): Promise<StoredAnswer | undefined> {
  const k = keyed(w.scope, w.key);
  const found = await sql<StoredAnswer>`
    select request_hash, status_code, response from ${k.table}
    where ${k.where} and status_code is not null`.execute(trx);
  return found.rows[0];
}

/**
 * Keeps the fingerprint of the rows a bulk credit key's import credited (imports' `rowsFingerprint`) with the
 * key, in the import's transaction: a dry run of the same rows saved again names that import (`duplicateOf`).
 */
export async function keepRowsFingerprint(trx: Tx, key: string, fingerprint: string): Promise<void> {
  await sql`update bulk_credit_keys set rows_fingerprint = ${fingerprint} where key = ${key}`.execute(trx);
}
