import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helper';
import { snapshotAndRebuild } from '../derived-snapshot';
import { migrateToLatest } from '../migrate';

// A database as it was before migration 044: client IDs stored as they came in, only trimmed.
const database = await openTestDatabase({ skipMigrations: ['044-canonical-client-ids'] });
const db = database.db;

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const accounts = [
  [1, 'Jose\u0301'], // NFD alone: composed
  [2, 'member-B\u200b'], // a zero-width space: removed
  [3, 'x\u00a0y'], // a no-break space: a space
  [4, 'Ann\u00e9'], // canonical already
  [5, 'ANNE\u0301'], // its canonical form is account 4's in another case: left
  [6, 'Zoe\u0308'], // two spellings of one form no account has: the first by id takes it
  [7, 'Zo\u00eb\u200b'],
  [8, 'plain-1'],
  [9, '\ufeffBOM-1'],
] as const;

describe('migration 044 (canonical client IDs)', () => {
  it('brings the stored client IDs to their canonical form, leaving those that would collide', async () => {
    for (const [n, clientId] of accounts) {
      await sql`insert into accounts (id, client_id) values (${id(n)}::uuid, ${clientId})`.execute(db);
    }
    expect(await migrateToLatest(db)).toEqual(['044-canonical-client-ids']);
    const { rows } = await sql<{ id: string; client_id: string }>`
      select id, client_id from accounts order by id`.execute(db);
    expect(rows.map((r) => r.client_id)).toEqual([
      'Jos\u00e9',
      'member-B',
      'x y',
      'Ann\u00e9',
      'ANNE\u0301',
      'Zo\u00eb',
      'Zo\u00eb\u200b',
      'plain-1',
      'BOM-1',
    ]);
    // The short-search counters followed the renames (the accounts triggers).
    const { kept, rebuilt } = await snapshotAndRebuild(db);
    expect(rebuilt).toEqual(kept);
    await database.close();
  });
});
