import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The text of `db/derived/<name>`, checked against the SHA-256 its migration pinned. A migration is history:
 * an edit of its file makes the migration refuse to run (every test database migrates, so it fails at once)
 * instead of silently changing what it did. A later change adds a new file and migration.
 */
export function pinnedSql(name: string, sha256: string): string {
  const text = readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  const actual = createHash('sha256').update(text).digest('hex');
  if (actual !== sha256) {
    throw new Error(
      `db/derived/${name} changed after its migration shipped (sha256 ${actual}); add a new file`,
    );
  }
  return text;
}
