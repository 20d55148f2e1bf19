import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { ACCRUALS_STAGE, createStage, loadStage, type StageOutcome, stageErrors } from './imports.repository';

/**
 * The staging table of a bulk credit file (`POST /api/v1/imports/accruals`): its rows matched to accounts by
 * client ID or card number, checked again once the accounts are locked, and counted for the answer. The
 * staging, refusals and counting common to both imports are in `imports.repository.ts`.
 */

export async function stageAccruals(trx: Tx, importId: string): Promise<void> {
  await createStage(trx, ACCRUALS_STAGE);
  await loadStage(trx, ACCRUALS_STAGE, importId);
}

/**
 * Finds each row's account by client ID (in any case, as client lookup does) or by any of its cards. Read
 * before the accounts are locked: `refuseRenamedAccounts` checks the client IDs again under the lock.
 */
export async function resolveAccrualAccounts(trx: Tx): Promise<void> {
  await sql`
    update import_accruals_stage s set account_id = a.id
    from accounts a
    where s.error is null and s.client_id is not null and lower(a.client_id) = lower(s.client_id)`.execute(
    trx,
  );
  await sql`
    update import_accruals_stage s set account_id = c.account_id
    from cards c where s.error is null and s.card_number is not null and c.number = s.card_number`.execute(
    trx,
  );
  await sql`
    update import_accruals_stage
    set error = case when client_id is not null then 'ACCOUNT_NOT_FOUND' else 'CARD_NOT_FOUND' end
    where error is null and account_id is null`.execute(trx);
  await sql`update import_accruals_stage set post = true where error is null`.execute(trx);
}

/**
 * Once the accounts are locked: a row found by client ID whose account no longer carries it is refused
 * (ACCOUNT_NOT_FOUND, as it is when the file comes after). An erasure that renamed the account after
 * `resolveAccrualAccounts` read it, and that held the lock the credit waited on, booked the credit, its
 * free-text reason and all, to the erased account.
 */
export async function refuseRenamedAccounts(trx: Tx): Promise<void> {
  await sql`
    update import_accruals_stage s set error = 'ACCOUNT_NOT_FOUND', post = false
    where s.post and s.client_id is not null
      and not exists (
        select 1 from accounts a where a.id = s.account_id and lower(a.client_id) = lower(s.client_id))`.execute(
    trx,
  );
}

export async function accrualsOutcome(trx: Tx): Promise<StageOutcome> {
  const counts = await sql<{ created: number }>`
    select count(*) filter (where post and error is null)::int as created from import_accruals_stage`.execute(
    trx,
  );
  return { created: counts.rows[0]!.created, unchanged: 0, ...(await stageErrors(trx, ACCRUALS_STAGE)) };
}

/**
 * When the file answered under a bulk credit key was imported (its claim commits with the import): `key` as
 * stored (keyed), `plainKey` as sent, for a key a release before migration 048 stored and no server keyed yet.
 */
export async function keyImportedAt(trx: Tx, key: string, plainKey: string): Promise<Date | undefined> {
  const found = await sql<{ created_at: Date | string }>`
    select created_at from bulk_credit_keys
    where (key = ${key} and keyed) or (key = ${plainKey} and not keyed)
    order by keyed desc limit 1`.execute(trx);
  const at = found.rows[0]?.created_at;
  return at === undefined ? undefined : new Date(at);
}

/**
 * A fingerprint of a bulk credit file's valid rows as parsed (spooled in `import_rows`), or undefined when it
 * has none: each row's account reference (a client ID in lower case, as it is looked up, or a card number),
 * its points as a canonical decimal and its reason, sorted. The same rows however the file was saved (CRLF
 * or LF, a byte order mark, `7` or `7.00`, blank lines, another order) have the same fingerprint; the body's
 * SHA-256, the default Idempotency-Key, differs for each of those. Plain: it is stored keyed (`keyedDigest`),
 * as a one-row file's is a guess of the client ID away from it.
 */
export async function rowsFingerprint(trx: Executor, importId: string): Promise<string | undefined> {
  const found = await sql<{ fingerprint: string | null }>`
    select case when count(*) > 0 then
      encode(sha256(convert_to(string_agg(r, E'\n' order by r), 'UTF8')), 'hex') end as fingerprint
    from (
      select jsonb_build_array(lower(client_id), card_number, points::numeric(14, 2)::text, reason)::text as r
      from import_rows where import_id = ${importId}::uuid and error is null
    ) rows`.execute(trx);
  return found.rows[0]?.fingerprint ?? undefined;
}

/**
 * The latest completed import that credited rows of this fingerprint, or undefined: `fingerprint` keyed as it
 * is stored, `plain` as `rowsFingerprint` answers it, for a key stored before migration 048 and not keyed yet.
 */
export async function importOfRows(
  trx: Executor,
  fingerprint: { keyed: string; plain: string },
): Promise<{ importId: string; createdAt: string } | undefined> {
  const found = await sql<{ import_id: string; created_at: Date | string }>`
    select response ->> 'importId' as import_id, created_at from bulk_credit_keys
    where ((rows_fingerprint = ${fingerprint.keyed} and keyed) or (rows_fingerprint = ${fingerprint.plain} and not keyed))
      and status_code is not null and response ? 'importId'
    order by created_at desc limit 1`.execute(trx);
  const row = found.rows[0];
  return row && { importId: row.import_id, createdAt: new Date(row.created_at).toISOString() };
}
