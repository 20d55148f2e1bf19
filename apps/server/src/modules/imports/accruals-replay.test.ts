import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4 "Bulk credits": the same file again returns the first answer, whatever options it
// comes with; a check (dry run) of a file already imported says so, with the import's figures.
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);

const members = await post('accounts', csv('clientId', 'RE-1', 'RE-2'));
expect(members.json()).toMatchObject({ created: 2, failed: 0 });

const balances = async () =>
  (
    await sql<{ client_id: string; balance: string }>`
      select client_id, balance::text as balance from accounts where client_id like 'RE-%' order by client_id`.execute(
      db,
    )
  ).rows.map((r) => `${r.client_id}=${r.balance}`);

describe('the same bulk credit file with other options', () => {
  it('imported with skipInvalid: again without it, or checked, answers the import and credits nothing', async () => {
    const file = csv('clientId,points', 'RE-1,5', 'NOBODY,1', 'RE-2,2');
    const first = await post('accruals', file, { query: 'skipInvalid=true' });
    expect(first.json()).toMatchObject({
      dryRun: false,
      created: 2,
      failed: 1,
      importId: expect.any(String),
    });
    for (const query of ['', 'skipInvalid=false', 'dryRun=true', 'dryRun=true&skipInvalid=true']) {
      const again = await post('accruals', file, { query });
      expect(again.statusCode, `${query}: ${again.body}`).toBe(200);
      expect(again.headers['idempotent-replayed'], query).toBe('true');
      expect(again.body, query).toBe(first.body);
    }
    expect(await balances()).toEqual(['RE-1=5.00', 'RE-2=2.00']);
  });

  it('imported without skipInvalid: again with it is the first answer', async () => {
    const file = csv('clientId,points', 'RE-1,1');
    const first = await post('accruals', file);
    expect(first.json()).toMatchObject({ created: 1, failed: 0 });
    const again = await post('accruals', file, { query: 'skipInvalid=true' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toBe(first.body);
    expect(await balances()).toEqual(['RE-1=6.00', 'RE-2=2.00']);
  });

  it('another file under a key already used is a 409 saying when that key imported its file', async () => {
    const headers = { 'idempotency-key': 'spring-campaign' };
    const first = await post('accruals', csv('clientId,points', 'RE-2,1'), { headers });
    expect(first.json()).toMatchObject({ created: 1 });
    const stored = await sql<{ created_at: Date | string }>`
      select created_at from bulk_credit_keys where response ->> 'importId' = ${first.json().importId}`.execute(
      db,
    );
    const on = new Date(stored.rows[0]!.created_at).toISOString().slice(0, 16).replace('T', ' ');
    for (const query of ['', 'dryRun=true']) {
      const other = await post('accruals', csv('clientId,points', 'RE-2,9'), { headers, query });
      expect(other.statusCode, query).toBe(409);
      expect(other.json()).toMatchObject({
        status: 409,
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: `This Idempotency-Key was already used for another file, imported on ${on} UTC: nothing was imported (a new file needs a new key)`,
      });
    }
    expect(await balances()).toEqual(['RE-1=6.00', 'RE-2=3.00']);
  });
});
