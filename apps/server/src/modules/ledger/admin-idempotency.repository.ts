import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection';
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
  /**
   * Whether request_hash (and for a bulk credit key the key and rows fingerprint) is keyed with the erased
   * client secret (migration 048), or plain as an earlier version wrote it and no server has keyed it yet.
   */
  keyed: boolean;
}

/**
 * Whose Idempotency-Key it is. A user's (manual accrual: two users' keys never meet), or the programme's for
 * bulk credit files (PROGRAMME-API §4: the same file again returns the first answer, whoever posts it, so a
 * second manager posting the file, or anyone after its first poster was deleted, never credits it twice).
 */
export type KeyScope = { userId: string } | 'bulk-credits';

interface Keyed {
  /** The INSERT of a claim with its request hash, doing nothing when the key is taken. */
  claim: (hash: string, keyedHash: boolean) => RawBuilder<unknown>;
  table: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
}

/**
 * `key`: as stored. A bulk credit key is stored keyed (`keyedDigest` of the key sent, which by default is the
 * body's SHA-256); a user's key is stored as sent (the console's are random) and only its hash is keyed.
 */
function keyed(scope: KeyScope, key: string): Keyed {
  if (scope === 'bulk-credits') {
    return {
      claim: (hash, keyedHash) => sql`insert into bulk_credit_keys (key, request_hash, keyed)
        values (${key}, ${hash}, ${keyedHash}) on conflict (key) do nothing`,
      table: sql.table('bulk_credit_keys'),
      where: sql`key = ${key}`,
    };
  }
  return {
    claim: (hash, keyedHash) => sql`insert into idempotency_keys (user_id, key, request_hash, keyed)
      values (${scope.userId}::uuid, ${key}, ${hash}, ${keyedHash}) on conflict (user_id, key) do nothing`,
    table: sql.table('idempotency_keys'),
    where: sql`user_id = ${scope.userId}::uuid and key = ${key}`,
  };
}

/**
 * A bulk credit key's answer as a release before 048 stored it: under the key as sent, not keyed. Until a
 * server starting keys it (`keyPlainRequestHashes`), the same file is still the import it answered.
 */
async function plainBulkAnswer(trx: Tx, plainKey: string | undefined): Promise<StoredAnswer | undefined> {
  if (plainKey === undefined) return undefined;
  const found = await sql<StoredAnswer>`
    select request_hash, status_code, response, keyed from bulk_credit_keys
    where key = ${plainKey} and not keyed and status_code is not null`.execute(trx);
  return found.rows[0];
}

/**
 * Claims the key for this request, or returns the answer of the request that claimed it first. A concurrent
 * request with the same key waits here until the first one commits (or rolls back, and then claims it itself).
 * `keyed`: whether `hash` (and a bulk credit `key`) is keyed; `plainKey`: a bulk credit key as sent, for an
 * answer stored before keys were keyed. That one is read before the claim: a server starting that keys it
 * meanwhile either has not committed (the plain row is read) or has (the claim meets the keyed row).
 */
export async function claimKey(
  trx: Tx,
  w: { scope: KeyScope; key: string; hash: string; keyed?: boolean; plainKey?: string },
): Promise<StoredAnswer | undefined> {
  const plain = await plainBulkAnswer(trx, w.scope === 'bulk-credits' ? w.plainKey : undefined);
  if (plain) return plain;
  const k = keyed(w.scope, w.key);
  const claimed = await sql`${k.claim(w.hash, w.keyed ?? false)} returning key`.execute(trx);
  if (claimed.rows.length > 0) return undefined;
  const existing = await sql<StoredAnswer>`
    select request_hash, status_code, response, keyed from ${k.table} where ${k.where}`.execute(trx);
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
  w: { scope: KeyScope; key: string; plainKey?: string },
): Promise<StoredAnswer | undefined> {
  const k = keyed(w.scope, w.key);
  const found = await sql<StoredAnswer>`
    select request_hash, status_code, response, keyed from ${k.table}
    where ${k.where} and status_code is not null`.execute(trx);
  return found.rows[0] ?? (await plainBulkAnswer(trx, w.scope === 'bulk-credits' ? w.plainKey : undefined));
}

/**
 * Keeps the fingerprint of the rows a bulk credit key's import credited (imports' `rowsFingerprint`, keyed)
 * with the key, in the import's transaction: a dry run of the same rows saved again names that import
 * (`duplicateOf`).
 */
export async function keepRowsFingerprint(trx: Tx, key: string, fingerprint: string): Promise<void> {
  await sql`update bulk_credit_keys set rows_fingerprint = ${fingerprint} where key = ${key}`.execute(trx);
}

/**
 * The request digests a release before migration 048 stored plain, keyed as a server starts (member-data's
 * `keyPlainDigests`, with its secret): a bulk credit key with its request hash and rows' fingerprint, and
 * manual accruals' request hashes. Until then `claimKey`, `findStoredAnswer` and the callers' comparisons
 * also match the plain form. On several servers at once, a row keyed by one no longer matches `not keyed` in
 * the other's statement once its lock is released.
 */
export async function keyPlainRequestHashes(db: Db, secret: string): Promise<void> {
  const key = (column: string) => sql`erased_client_key_keyed(${sql.ref(column)}, ${secret})`;
  await sql`update bulk_credit_keys u set key = ${key('u.key')}, request_hash = ${key('u.request_hash')},
      rows_fingerprint = ${key('u.rows_fingerprint')}, keyed = true
    where not u.keyed and not exists (select 1 from bulk_credit_keys k where k.key = ${key('u.key')})`.execute(
    db,
  );
  // The key was claimed again, keyed, beside its plain row (a server of this version while one of an earlier
  // version held the plain one): the keyed row is the answer a retry gets.
  await sql`delete from bulk_credit_keys u
    where not u.keyed and exists (select 1 from bulk_credit_keys k where k.key = ${key('u.key')})`.execute(
    db,
  );
  // A manual accrual's answer is its operation or a refusal; an admin create (`createUnderKey`) keeps only a 201
  // answer without one, and compares its hash plain.
  await sql`update idempotency_keys set request_hash = ${key('request_hash')}, keyed = true
    where not keyed and (response ? 'operation' or status_code <> 201)`.execute(db);
}
