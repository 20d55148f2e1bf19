import { canonicalClientId, isUuid } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * The accounts a lookup text names: the account of the card with that number, the account with that
 * client ID (any case: accounts_client_id_lower_key; `accountByClientId`), and for a UUID the account with
 * that id, or of the card or operation with that id (what the audit log names; the client page resolves its
 * links here).
 * Each is an index probe.
 */
export async function resolveAccountIds(db: Db, text: string): Promise<string[]> {
  const byId = isUuid(text)
    ? sql`union select id from accounts where id = ${text.toLowerCase()}::uuid
        union select account_id from cards where id = ${text.toLowerCase()}::uuid
        union select account_id from operations where id = ${text.toLowerCase()}::uuid and account_id is not null`
    : sql``;
  const byCard = /^\d{1,32}$/.test(text)
    ? sql`union select account_id from cards where number = ${text}`
    : sql``;
  const { rows } = await sql<{ id: string }>`
    (${accountByClientId(text)})
    ${byCard}
    ${byId}
  `.execute(db);
  return rows.map((r) => r.id);
}

/**
 * The account of a client ID: the one spelled as typed, else the one of its canonical form, so `José` typed
 * either way finds the member, and an account migration 044 left in its own spelling (its canonical form was
 * another account's) is still found by that spelling. Two probes of accounts_client_id_lower_key.
 */
export function accountByClientId(text: string) {
  return sql<{ id: string }>`select id from accounts
    where lower(client_id) in (lower(${text}), lower(${canonicalClientId(text)}))
    order by lower(client_id) = lower(${text}) desc limit 1`;
}
