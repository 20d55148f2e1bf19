import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4: "A file with an invalid row writes nothing unless skipInvalid=true". A row with
// another number of cells than the header is such a row, not a reason to refuse the whole file; what the
// parser cannot read on from (a quote left open) stays a 400 naming the line where its row starts.
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);

const members = await post('accounts', csv('clientId', 'cc-1', 'cc-2', 'cc-3'));
expect(members.json()).toMatchObject({ created: 3, failed: 0 });

const balances = async () =>
  (
    await sql<{ client_id: string; balance: string }>`
      select client_id, balance::text as balance from accounts where client_id like 'cc-%' order by client_id`.execute(
      db,
    )
  ).rows.map((r) => `${r.client_id}=${r.balance}`);

const EXTRA = 'has 4 cells, the header has 3 (a comma in a text that is not in double quotes?)';

describe('a row with another number of cells than the header', () => {
  const file = csv('clientId,points,reason', 'cc-1,5,Goodwill, late delivery', 'cc-2,3,Goodwill', 'cc-3,1');

  it('is an error row naming its line: nothing is written without skipInvalid', async () => {
    for (const query of ['', 'dryRun=true']) {
      const res = await post('accruals', file, { query });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), query).toMatchObject({ rows: 3, created: query ? 1 : 0, failed: 2 });
      expect(res.json().errors).toEqual([
        { line: 2, code: 'INVALID_CSV', message: EXTRA },
        { line: 4, code: 'INVALID_CSV', message: 'has 2 cells, the header has 3' },
      ]);
    }
    expect(await balances()).toEqual(['cc-1=0.00', 'cc-2=0.00', 'cc-3=0.00']);
  });

  it('with skipInvalid the valid rows are written', async () => {
    const res = await post('accruals', file, { query: 'skipInvalid=true' });
    expect(res.json()).toMatchObject({ rows: 3, created: 1, failed: 2 });
    expect(await balances()).toEqual(['cc-1=0.00', 'cc-2=3.00', 'cc-3=0.00']);
  });

  it('is an error row of a members file too', async () => {
    const res = await post('accounts', csv('clientId,reason', 'cc-9,ok,extra', 'cc-10,ok'), {
      query: 'skipInvalid=true',
    });
    expect(res.json()).toMatchObject({ created: 1, failed: 1 });
    expect(res.json().errors).toEqual([
      {
        line: 2,
        code: 'INVALID_CSV',
        message: 'has 3 cells, the header has 2 (a comma in a text that is not in double quotes?)',
      },
    ]);
  });
});

describe('what the parser cannot read on from is a 400 naming the line its row starts on', () => {
  it('a quote left open, in a small file and in one that runs past the longest row', async () => {
    const small = csv('clientId,points,reason', 'cc-1,1,ok', 'cc-2,1,"Goodwill', 'cc-3,1,ok');
    const large = csv(
      'clientId,points,reason',
      'cc-1,1,ok',
      'cc-2,1,"Goodwill',
      ...Array(8000).fill('cc-3,1,ok'),
    );
    // Blank lines and lines of commas (a spreadsheet's empty rows) before it are lines too.
    const blanks = csv('clientId,points,reason', '', ',,', 'cc-2,1,"Goodwill', 'cc-3,1,ok');
    const res = await post('accruals', blanks, { query: 'skipInvalid=true' });
    expect(res.json().message).toMatch(/^Line 4: a double quote \("\) opened on this line is never closed/);
    for (const body of [small, large]) {
      const res = await post('accruals', body, { query: 'skipInvalid=true' });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CSV' });
      expect(res.json().message).toMatch(/^Line 3: a double quote \("\) opened on this line is never closed/);
    }
  });

  it('a row longer than 65,536 bytes', async () => {
    const res = await post(
      'accruals',
      csv('clientId,points,reason', 'cc-1,1,ok', `cc-2,1,${'x'.repeat(70_000)}`),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'INVALID_CSV',
      message: 'Line 3: a row is longer than 65,536 bytes',
    });
  });
});
