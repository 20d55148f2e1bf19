import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper';
import { anyText, anyUuid } from './any-of';

describe('anyUuid / anyText', () => {
  it('one statement text whatever the number of values, and the rows of exactly those values', async () => {
    const database = await openTestDatabase();
    try {
      const { db } = database;
      const accounts = await db
        .insertInto('accounts')
        .values(['any-of-1', 'any-of-2', 'any-of-3'].map((client_id) => ({ client_id, balance: '0' })))
        .returning(['id', 'client_id'])
        .execute();
      const ids = accounts.map((a) => a.id);
      const byIds = (some: string[]) =>
        db.selectFrom('accounts').select('client_id').where('id', '=', anyUuid(some)).orderBy('client_id');
      // The same text for 1, 2 and 3 ids: one prepared statement (db/prepared-statements.ts), not one per count.
      expect(new Set([1, 2, 3].map((n) => byIds(ids.slice(0, n)).compile().sql)).size).toBe(1);
      expect((await byIds(ids.slice(1)).execute()).map((r) => r.client_id)).toEqual(['any-of-2', 'any-of-3']);
      expect(await byIds([]).execute()).toEqual([]);
      const byClient = await db
        .selectFrom('accounts')
        .select('id')
        .where('client_id', '=', anyText(['any-of-1', 'nobody']))
        .execute();
      expect(byClient.map((r) => r.id)).toEqual([ids[0]]);
    } finally {
      await database.close();
    }
  });
});
