import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connection';

const root = mkdtempSync(join(tmpdir(), 'loyalty-private-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('DATA_DIR is the server alone', () => {
  it('a new one is made 0700, and one left open by an earlier version is closed at start', async () => {
    const fresh = join(root, 'fresh', 'data');
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    for (const dataDir of [fresh, open]) {
      const database = await openDatabase({ dataDir });
      try {
        // Before: 0755, and PGlite's files in it 0666: any local account could read and change the database.
        expect(modeOf(dataDir).toString(8)).toBe('700');
      } finally {
        await database.close();
      }
    }
  });
});
