import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { csv, importer } from './imports.fixtures';
import { REPORTED_ERRORS } from './imports.repository';

// Imports spool their rows to `import_rows` (migration 022) and check them in SQL: what the answers keep
// from the in-memory checks they replaced, and what the server no longer holds.
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);
const HEADER = 'clientId,cardNumber,points,expiresAt,reason';

const spooledRows = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from import_rows`.execute(db)).rows[0]!.n;
const clientIds = async (prefix: string) =>
  (
    await sql<{ client_id: string }>`
      select client_id from accounts where client_id like ${`${prefix}%`} order by client_id`.execute(db)
  ).rows.map((r) => r.client_id);

describe('member import: repeats inside one file', () => {
  it('a repeat names the earlier line it repeats; a row refused for its card does not claim its client ID', async () => {
    const res = await post(
      'accounts',
      csv(
        HEADER,
        'REP-A,11110000,1,,', // line 2: accepted
        'REP-B,11110000,,,', // line 3: its card is line 2's
        'rep-b,22220000,,,', // line 4: accepted (line 3 was refused, so REP-B is free)
        'REP-B,,,,', // line 5: its client ID is line 4's (any case)
        'REP-C,22220000,,,', // line 6: its card is line 4's
        'REP-A,,,,', // line 7: client ID of line 2
      ),
      { query: 'skipInvalid=true' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 6, created: 2, unchanged: 0, failed: 4 });
    expect(res.json().errors).toEqual([
      { line: 3, code: 'CARD_EXISTS', message: 'cardNumber is also on line 2' },
      { line: 5, code: 'ACCOUNT_EXISTS', message: 'clientId is also on line 4' },
      { line: 6, code: 'CARD_EXISTS', message: 'cardNumber is also on line 4' },
      { line: 7, code: 'ACCOUNT_EXISTS', message: 'clientId is also on line 2' },
    ]);
    expect(await clientIds('REP-')).toEqual(['REP-A']);
    expect(await clientIds('rep-')).toEqual(['rep-b']);
    expect(ledgerIsSound(await verifyLedger(db))).toBe(true);
  });

  it('an invalid row claims nothing: the same client ID later in the file is created', async () => {
    const res = await post('accounts', csv(HEADER, 'INV-1,abc,,,', 'INV-1,33330000,2,,'), {
      query: 'skipInvalid=true',
    });
    expect(res.json()).toMatchObject({ rows: 2, created: 1, failed: 1 });
    expect(res.json().errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [2, 'VALIDATION_ERROR'],
    ]);
  });
});

describe('the error report is bounded', () => {
  it(`lists the first ${REPORTED_ERRORS} errors by line and counts them all`, async () => {
    const bad = REPORTED_ERRORS + 250;
    const lines = Array.from({ length: bad }, (_, i) =>
      // Every third row a repeat of the first (checked in SQL), the others refused by the row schema.
      i % 3 === 0 ? 'BOUND-0,,,,' : `BOUND-${i},not-a-card,,,`,
    );
    const res = await post('accounts', csv(HEADER, 'BOUND-0,,,,', ...lines), { query: 'dryRun=true' });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ rows: bad + 1, created: 1, failed: bad });
    expect(report.errors).toHaveLength(REPORTED_ERRORS);
    expect(report.errors.map((e: { line: number }) => e.line)).toEqual(
      Array.from({ length: REPORTED_ERRORS }, (_, i) => i + 3),
    );
    expect(report.errors[0]).toMatchObject({ code: 'ACCOUNT_EXISTS', message: 'clientId is also on line 2' });
    expect(report.errors[1]).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('the spool', () => {
  it('is empty after an import, a dry run, a refused file and a bad CSV', async () => {
    await post('accounts', csv(HEADER, 'SPOOL-1,,5,,'));
    await post('accounts', csv(HEADER, 'SPOOL-2,,5,,'), { query: 'dryRun=true' });
    await post('accounts', csv(HEADER, 'SPOOL-3,,5,,', 'SPOOL-4,x,,,'));
    await post('accruals', csv('clientId,points,reason', 'SPOOL-1,1,Goodwill', 'NOBODY,1,x'));
    const bad = await post('accounts', csv(HEADER, 'SPOOL-5,,,,', '"SPOOL-6,,,,'));
    expect(bad.statusCode).toBe(400);
    expect(await spooledRows()).toBe(0);
    expect(await clientIds('SPOOL-')).toEqual(['SPOOL-1']);
  });

  it('a file spooled in many batches is merged whole', async () => {
    const rows = Array.from({ length: 2100 }, (_, i) => `MANY-${i},${String(90000000 + i)},1,,`);
    const res = await post('accounts', csv(HEADER, ...rows));
    expect(res.json()).toMatchObject({ rows: 2100, created: 2100, failed: 0 });
    expect(await spooledRows()).toBe(0);
  });
});
