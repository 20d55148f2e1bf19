import { type Kysely, sql } from 'kysely';

/**
 * `canonicalClientId` of packages/contracts as this migration shipped (a migration keeps its meaning when
 * the function changes later).
 */
function canonical(value: string): string {
  return value
    .replace(/\p{Cf}/gu, '')
    .replace(/\p{Zs}/gu, ' ')
    .normalize('NFC')
    .trim();
}

/** Accounts read per statement: a page of candidates by id, then one update of the ones that change. */
const BATCH = 1000;

/**
 * Client IDs in their canonical form (packages/contracts `canonicalClientId`: format characters removed,
 * Unicode spaces as a space, NFC, trimmed). Before it, only a trim: `José` in NFC and in NFD, or `member-B`
 * with a zero-width or a no-break space, were different accounts to the unique index on lower(client_id), and a
 * member erased under one spelling came back under another. From now on every client ID that comes in is
 * canonical; this brings the stored ones to that form.
 *
 * The form is computed in JavaScript, as at the edge, not in SQL: PostgreSQL's regular expressions have no
 * \p{Cf} (its normalize() would do NFC, not the rest). Only client IDs with a character outside printable
 * ASCII, or a space at an end, can change; the others are not read twice.
 *
 * An account whose canonical form another account already has (in any case) keeps its client ID: two
 * members' accounts are not merged by a migration, and renaming one would change what its holder typed.
 * Of several accounts sharing a canonical form that no account has yet, the first by id takes it. Nothing
 * fails on the ones left: a new account or import row in any spelling of them meets the account holding
 * the canonical form (409 CLIENT_ID_TAKEN, ACCOUNT_EXISTS or unchanged); the client lookup still finds
 * them by the exact spelling they carry, the list's search by a part of it in ASCII.
 *
 * The keys of members erased before (erased_client_ids) cannot be recomputed: their IDs are not kept. A
 * member erased under a canonical spelling (most are: NFC is what keyboards type) is kept out in every
 * spelling now; one erased under another spelling (NFD, a zero-width space) no longer is, as an import row
 * now arrives canonical and its key is of other text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ id: string; client_id: string }>`
      select id, client_id from accounts
      where id > ${after}::uuid and (client_id !~ '^[ -~]*$' or client_id like ' %' or client_id like '% ')
      order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const changed = rows
      .map((row) => ({ id: row.id, canonical: canonical(row.client_id), was: row.client_id }))
      .filter((row) => row.canonical !== row.was && row.canonical !== '');
    if (changed.length === 0) continue;
    // One account per canonical form (the database's lower(), as the unique index), none that another
    // account holds: the update then cannot meet the unique indexes. The accounts triggers keep the search
    // counters (account_search_counts) exact, as for any rename.
    await sql`
      with wanted as (
        select distinct on (lower(c.canonical)) c.id, c.canonical
        from unnest(${changed.map((row) => row.id)}::uuid[], ${changed.map((row) => row.canonical)}::text[])
          as c (id, canonical)
        order by lower(c.canonical), c.id
      )
      update accounts a set client_id = w.canonical
      from wanted w
      where a.id = w.id
        and not exists (select 1 from accounts o where lower(o.client_id) = lower(w.canonical) and o.id <> w.id)`.execute(
      db,
    );
  }
}
