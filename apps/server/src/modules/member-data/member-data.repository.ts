import { canonicalClientId } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { keyPlainRequestHashes } from '../ledger/admin-idempotency.repository';

/** Whether another account carries `clientId` (compared as the unique index on lower(client_id) does). */
export async function clientIdTakenByOther(trx: Tx, clientId: string, accountId: string): Promise<boolean> {
  const found = await trx
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(client_id)`, '=', clientId.toLowerCase())
    .where('id', '<>', accountId)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * The erased member's client ID kept as a key only, so a member import cannot create it again (migration 033),
 * keyed with `secret` (migration 041: without it, a dump holder cannot test guessed IDs against the keys).
 * The key is of the ID's canonical form, which an import row's client ID is in: an account left in another
 * form by migration 044 (its canonical form was another account's) is kept out in every spelling too.
 */
export async function rememberErasedClientId(trx: Tx, clientId: string, secret: string): Promise<void> {
  await sql`insert into erased_client_ids (key, keyed)
    values (erased_client_key(${canonicalClientId(clientId)}, ${secret}), true)
    on conflict do nothing`.execute(trx);
}

/**
 * Keys the rows an earlier version kept unkeyed (migration 041), as a server starts, and the digests of
 * requests and files it kept plain (`keyPlainDigests`, migration 048). Safe on several servers at once: they
 * share the secret, and a row keyed meanwhile no longer matches `not keyed` once its lock is released.
 */
export async function keyErasedClientIds(db: Db, secret: string): Promise<void> {
  await keyPlainDigests(db, secret);
  await sql`update erased_client_ids u set key = erased_client_key_keyed(u.key, ${secret}), keyed = true
    where not u.keyed and not exists (
      select 1 from erased_client_ids k where k.key = erased_client_key_keyed(u.key, ${secret}))`.execute(db);
  // The ID was erased again after it came back (an older server wrote it unkeyed beside its keyed row).
  await sql`delete from erased_client_ids u where not u.keyed and exists (
      select 1 from erased_client_ids k where k.key = erased_client_key_keyed(u.key, ${secret}))`.execute(db);
}

/**
 * The digests a release before migration 048 stored plain, keyed as `keyedDigest` keys them now (migration 041's
 * secret prefix, `erased_client_key_keyed`, which keys a digest without what it was taken of): an import's
 * audit `sha256` (becoming `fileDigest`) here, the idempotency records by the ledger (`keyPlainRequestHashes`).
 * Until then the lookups also match the plain form, so a file or a retry is recognised throughout. Several
 * servers starting at once: a row keyed by one is re-checked by the other's statement once its lock is
 * released, and no longer matches.
 */
export async function keyPlainDigests(db: Db, secret: string): Promise<void> {
  await sql`update audit_log
    set dest = (dest - 'sha256') || jsonb_build_object('fileDigest', erased_client_key_keyed(dest ->> 'sha256', ${secret}))
    where target_type = 'import' and dest ? 'sha256'`.execute(db);
  await keyPlainRequestHashes(db, secret);
}

export async function renameAccount(trx: Tx, id: string, clientId: string): Promise<void> {
  await trx.updateTable('accounts').set({ client_id: clientId }).where('id', '=', id).execute();
}

/**
 * Every card of the account blocked with reason `Erased` (its old reason may be free text about the
 * member). Answers the ids of the cards that were not blocked before, whose blocking is news to the
 * systems that follow the events.
 */
export async function blockCardsAsErased(
  trx: Tx,
  accountId: string,
): Promise<{ all: number; newly: string[] }> {
  const open = await trx
    .selectFrom('cards')
    .select('id')
    .where('account_id', '=', accountId)
    .where('status', '<>', 'blocked')
    .execute();
  const rows = await trx
    .updateTable('cards')
    .set({ status: 'blocked', blocked_reason: 'Erased', blocked_at: sql`coalesce(blocked_at, now())` })
    .where('account_id', '=', accountId)
    .returning('id')
    .execute();
  return { all: rows.length, newly: open.map((card) => card.id) };
}

/**
 * Clears the free-text reasons of the account's operations: in the operations (amounts, dates and links
 * stay, so the ledger still verifies) and in the manual-accrual answers kept for idempotent replays.
 * Holds, redemptions and expiries keep theirs: the ledger writes those ('Expired', 'Released',
 * 'Captured …'), they say nothing about the member, and a hold's is read again (an expired hold's capture
 * answers HOLD_EXPIRED by it). So do the POS's writes: a return's 'Return of receipt …' (it has
 * `returnOf`) is the only thing telling it from an unexplained debit (PROGRAMME-API §4: free-text reasons).
 */
export async function clearOperationReasons(trx: Tx, accountId: string): Promise<number> {
  const rows = await trx
    .updateTable('operations')
    .set({ meta: sql`meta - 'reason'` })
    .where('account_id', '=', accountId)
    .where('type', 'not in', ['hold', 'redemption', 'expiry'])
    .where('pos_id', 'is', null)
    .where(sql<boolean>`meta ? 'reason' and not meta ? 'returnOf'`)
    .returning('id')
    .execute();
  await sql`
    update idempotency_keys set response = response #- '{operation,meta,reason}'
    where response -> 'operation' ->> 'accountId' = ${accountId}`.execute(trx);
  return rows.length;
}

/**
 * The answers kept for the replay of the account's creation (`createAccount` under an Idempotency-Key), deleted:
 * they hold the client ID in clear, and their request hash is a plain SHA-256 of it that a dump could test
 * guesses on. A retry with such a key after the erasure is a request of its own again.
 */
export async function forgetCreateAnswers(trx: Tx, accountId: string): Promise<void> {
  await sql`delete from idempotency_keys
    where response ->> 'id' = ${accountId} and response ? 'clientId'`.execute(trx);
}

/**
 * The event outbox (PROGRAMME-API §5) without them either: the account's `account.created` carries its
 * client ID, its operations' events their free-text reasons, its cards' events (`card.blocked`, `card.reissued`) the
 * reason a card was blocked with, which may be free text about the member (`blockCardsAsErased` replaces
 * it in the cards). Like an operation's reason, it is cleared (null), not replaced: the event of the
 * erasure's own blocking is the one saying `Erased` (and keeps it when an erasure is repeated).
 * Deliveries read the event when they send it, so a retry after the erasure sends the redacted text.
 */
export async function redactAccountEvents(trx: Tx, accountId: string, erasedId: string): Promise<void> {
  // One statement, so the events (no index on their account) are read once, under the account's lock.
  const freeBlockedReason = sql`(e.type like 'card.%' and jsonb_typeof(e.data -> 'blockedReason') = 'string'
    and e.data ->> 'blockedReason' <> 'Erased')`;
  // The operations whose reasons `clearOperationReasons` keeps (the ledger's and the tills' own words): their
  // events keep them too, so a points.returned still says what it returned.
  const freeReason = sql`(e.data -> 'meta' ? 'reason'
    and e.data ->> 'type' not in ('hold', 'redemption', 'expiry')
    and e.data ->> 'posId' is null and not e.data -> 'meta' ? 'returnOf')`;
  await sql`
    update events e set data = (case
        when e.type = 'account.created' then jsonb_set(e.data, '{clientId}', to_jsonb(${erasedId}::text))
        when ${freeBlockedReason} then jsonb_set(e.data, '{blockedReason}', 'null')
        else e.data end) #- '{meta,reason}'
    where (e.type = 'account.created' and e.data ->> 'id' = ${accountId})
      or (e.data ->> 'accountId' = ${accountId} and (${freeReason} or ${freeBlockedReason}))`.execute(trx);
}

/**
 * The audit entries of the account's cards without the reasons they were blocked with, for the reason
 * `redactAccountEvents` gives: cleared from a block's message (as a manual accrual's reason is from its
 * message) and from the card snapshots before and after. Which card was issued, blocked or reissued, by
 * whom and when, stays.
 */
export async function redactCardAudit(trx: Tx, accountId: string): Promise<void> {
  const snapshot = (column: 'source' | 'dest') => sql`case
      when jsonb_typeof(${sql.ref(column)} -> 'blockedReason') = 'string'
      then jsonb_set(${sql.ref(column)}, '{blockedReason}', 'null')
      else ${sql.ref(column)} end`;
  await sql`
    update audit_log set
      message = case when message like 'Blocked card %: %' then split_part(message, ': ', 1) else message end,
      source = ${snapshot('source')},
      dest = ${snapshot('dest')}
    where target_type = 'card'
      and target_id in (select id::text from cards where account_id = ${accountId}::uuid)`.execute(trx);
}

/**
 * The account's audit entries without what the erasure removes: the client ID (in the creation message
 * and the account snapshots) and the reasons manual accruals wrote into their message.
 */
export async function redactAccountAudit(
  trx: Tx,
  accountId: string,
  clientId: string,
  erasedId: string,
): Promise<void> {
  const snapshot = (column: 'source' | 'dest') => sql`case
      when jsonb_typeof(${sql.ref(column)}) = 'object' and ${sql.ref(column)} ->> 'clientId' = ${clientId}
      then jsonb_set(${sql.ref(column)}, '{clientId}', to_jsonb(${erasedId}::text))
      else ${sql.ref(column)} end`;
  await sql`
    update audit_log set
      message = case
        when message like 'Added % points to account: %' then split_part(message, ': ', 1)
        else replace(message, ${`'${clientId}'`}, ${`'${erasedId}'`}) end,
      source = ${snapshot('source')},
      dest = ${snapshot('dest')}
    where target_type = 'account' and target_id = ${accountId}`.execute(trx);
}
