import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';

/**
 * Derived data as one subsystem (db/DERIVED.md): the row counters of migration 002 and the analytics
 * rollups of migration 004 move to one convention (row-level triggers, one trigger function per raw
 * table, one shard function), every definition becomes one SQL function shared with the rebuild and the
 * analytics reference, and a TRUNCATE now resets the row counters too. No table changes; the derived
 * rows already there stay valid (readers sum every shard, whichever function numbered it).
 *
 * The SQL lives in `db/derived/010-*.sql`. A migration is history, so each file is pinned by its SHA-256:
 * an edit would make this migration refuse to run (every test database migrates, so it fails at once)
 * instead of silently changing what 010 did. A later change of derived data adds `0NN-*.sql` files and
 * migration 0NN, which `create or replace`s what it changes.
 */
const files: ReadonlyArray<readonly [name: string, sha256: string]> = [
  ['010-definitions.sql', '0962da336fa1298c7d00920e0b4801de18fb4355201285dc2b075d612dc366bf'],
  ['010-rollups.sql', 'daee6fee059b5581d6826947fce55a0b8de5d177cfac260fe66f0a9add6d3c54'],
  ['010-row-counters.sql', '24745fe2616c31c699fbe1ff22a56f06d69281aed5feed9acfa17fd688d74b7c'],
  ['010-triggers.sql', 'c6f3dc2f656e03d53ba35b1e8fff94f2399610da6864557d7216d926ac69e9dd'],
];

function pinnedSql(name: string, sha256: string): string {
  const text = readFileSync(new URL(`../derived/${name}`, import.meta.url), 'utf8');
  const actual = createHash('sha256').update(text).digest('hex');
  if (actual !== sha256) {
    throw new Error(
      `db/derived/${name} changed after its migration shipped (sha256 ${actual}); add a new file`,
    );
  }
  return text;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, sha256] of files) await sql.raw(pinnedSql(name, sha256)).execute(db);
}
