import { type Kysely, sql } from 'kysely';
import { pinnedSql } from '../derived/pinned-sql';

/**
 * Derived data as one subsystem (db/DERIVED.md): the row counters of migration 002 and the analytics
 * rollups of migration 004 move to one convention (statement-level triggers with transition tables, one
 * trigger function per raw table, one shard function), every definition becomes one SQL function shared
 * with the rebuild and the analytics reference, and a TRUNCATE now resets the row counters too. No table
 * changes; the derived rows already there stay valid (readers sum every shard, whichever function
 * numbered it).
 *
 * The SQL lives in `db/derived/010-*.sql`. A migration is history, so each file is pinned by its SHA-256:
 * an edit would make this migration refuse to run (every test database migrates, so it fails at once)
 * instead of silently changing what 010 did. A later change of derived data adds `0NN-*.sql` files and
 * migration 0NN, which `create or replace`s what it changes.
 */
const files: ReadonlyArray<readonly [name: string, sha256: string]> = [
  ['010-definitions.sql', '861d8747d3e9dddb18ede4ba2277ccc596afeabbb24d04ad15053c70fab9b427'],
  ['010-rollups.sql', '3bae26ac8227a3a07875d32f03a28088a88bf6badab13a8f0827e1372465aca4'],
  ['010-row-counters.sql', 'f25ef5d74720cc5640629f84f4d98e348a2b71f36130218e02666f97d129a9f3'],
  ['010-triggers.sql', 'd647dfecfd271101381515a6ed979652cd4b0dd0f16fe1038eb52da73210c6e1'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, sha256] of files) await sql.raw(pinnedSql(name, sha256)).execute(db);
}
