import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// Files as spreadsheets and the exports write them: defused formula cells, quoted line breaks, and the
// spreadsheet formats that are not CSV at all.
const ctx = await createTestContext();
const post = importer(ctx);

const lines = (res: { json(): { errors: { line: number }[] } }) => res.json().errors.map((e) => e.line);

describe("a cell the exports defused with a '", () => {
  it('exported members imported back are unchanged, and bulk credits find them', async () => {
    // `'=x` is a client ID of its own: created here as the export writes it (`''=x`, one `'` read off).
    const ids = ['-0042', '@sum', '=1+1', '+49 170', 'plain', "'=x"];
    const cards = ids.map((_, i) => `7700${String(i).padStart(6, '0')}`);
    const rows = ids.map((id, i) => `${id === "'=x" ? "''=x" : id},${cards[i]},5`);
    const created = await post('accounts', csv('clientId,cardNumber,points', ...rows));
    expect(created.json(), created.body).toMatchObject({ created: ids.length, failed: 0 });

    const exported = await ctx.app.inject({
      url: '/api/v1/accounts?format=csv',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const records: Record<string, string>[] = parse(exported.body, { columns: true, bom: true });
    const back = records.filter((r) => cards.includes(r.activeCardNumber!));
    expect(back.map((r) => r.clientId).sort()).toEqual([
      "''=x",
      "'+49 170",
      "'-0042",
      "'=1+1",
      "'@sum",
      'plain',
    ]);

    // The exported cells as they are, with each member's card and opening points: the same rows again.
    const again = await post(
      'accounts',
      csv('clientId,cardNumber,points', ...back.map((r) => `${r.clientId},${r.activeCardNumber},5`)),
    );
    expect(again.json(), again.body).toMatchObject({ created: 0, unchanged: ids.length, failed: 0 });

    const credits = await post(
      'accruals',
      csv('clientId,points,reason', ...back.map((r) => `${r.clientId},1,Re-imported`)),
      { query: 'dryRun=true' },
    );
    expect(credits.json(), credits.body).toMatchObject({ created: ids.length, failed: 0 });
  });

  it("keeps any other ' as the cell's own, and reads one ' off quotes before a formula start", async () => {
    const res = await post('accounts', csv('clientId', "'quoted", "'''-1", "O'Brien"), {
      query: 'dryRun=true',
    });
    expect(res.json(), res.body).toMatchObject({ created: 3, failed: 0 });
    const accounts = await post('accounts', csv('clientId', "'quoted", "'''-1", "O'Brien"));
    expect(accounts.json()).toMatchObject({ created: 3 });
    const found = await ctx.app.inject({
      url: `/api/v1/accounts?search=${encodeURIComponent("'-1")}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(found.json().content.map((a: { clientId: string }) => a.clientId)).toEqual(["''-1"]);
    const quoted = await ctx.app.inject({
      url: `/api/v1/accounts?search=quoted`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(quoted.json().content.map((a: { clientId: string }) => a.clientId)).toEqual(["'quoted"]);
  });
});

describe('a quoted cell with line breaks', () => {
  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
  ])(
    '(%s) counts each break once in the lines errors name (a row is named by the line it ends on)',
    async (_, nl) => {
      const body = csv('clientId,points,reason', `member-B,1,"multi${nl}line${nl}reason"`, 'member-B,x,bad');
      const accruals = await post('accruals', body, { query: 'dryRun=true' });
      expect(lines(accruals), accruals.body).toEqual([4, 5]);
      const accounts = await post('accounts', body, { query: 'dryRun=true' });
      expect(lines(accounts), accounts.body).toEqual([5]);
    },
  );

  it('and in the header and an unclosed quote after them', async () => {
    const header = await post('accounts', 'clientId,"rea\r\nson"\r\nA,1\r\n');
    expect(header.json().message).toMatch(/^Line 2: unknown column rea/);
    const unclosed = await post(
      'accounts',
      csv('clientId,reason', 'A,"two\r\nlines"', 'B,ok', 'C,"never closed'),
    );
    expect(unclosed.json().message).toMatch(/^Line 5: .*never closed/);
    const stray = await post('accounts', csv('clientId,reason', 'A,"two\r\nlines"', 'C,bad"quote'));
    expect(stray.json().message).toMatch(/^Line 4: reason has a double quote/);
  });
});

describe('spreadsheet files that are not CSV say what they are and what to do', () => {
  const refused = async (body: string | Buffer, kind: 'accounts' | 'accruals' = 'accounts') => {
    const res = await post(kind, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('INVALID_CSV');
    return res.json().message as string;
  };

  it('an Excel workbook (.xlsx) or an old one (.xls)', async () => {
    const xlsx = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1'),
      Buffer.from([0x08, 0xff, 0xfe]),
    ]);
    expect(await refused(xlsx)).toBe(
      'Line 1: this is a spreadsheet workbook (.xlsx or .ods), not a CSV file; save it as "CSV UTF-8 (Comma delimited)" and upload that',
    );
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(await refused(xls, 'accruals')).toMatch(/^Line 1: this is an Excel 97-2003 workbook \(\.xls\)/);
  });

  it('UTF-16 text, either byte order', async () => {
    const text = 'clientId,points\r\nA,1\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.toString('utf16le'), 'utf16le').swap16();
    for (const body of [le, be]) {
      expect(await refused(body)).toBe(
        'Line 1: the file is UTF-16 text ("Unicode Text"), not UTF-8; save it as "CSV UTF-8 (Comma delimited)" and upload that',
      );
    }
  });

  it('columns separated by semicolons or tabs', async () => {
    expect(await refused(csv('clientId;cardNumber;points', 'A;12345678;1'))).toBe(
      `Line 1: the columns are separated by ';', not commas; save the file as "CSV UTF-8 (Comma delimited)" so that commas separate them`,
    );
    expect(await refused(csv('clientId\tpoints', 'A\t1'), 'accruals')).toMatch(
      /^Line 1: the columns are separated by tabs, not commas/,
    );
  });

  it("a first line sep=; (Excel's separator hint)", async () => {
    expect(await refused(csv('sep=;', 'clientId;points', 'A;1'))).toBe(
      `Line 1: the first line "sep=;" says the columns are separated by ';'; save the file as "CSV UTF-8 (Comma delimited)" so that commas separate them`,
    );
    expect(await refused(csv('sep=,', 'clientId,points', 'A,1'))).toBe(
      `Line 1: the first line "sep=," is a spreadsheet's hint, not the header row; delete that line`,
    );
  });

  it('points with a decimal comma', async () => {
    const accruals = await post('accruals', csv('clientId,points', 'A,"5,50"'), { query: 'dryRun=true' });
    expect(accruals.json().errors).toEqual([
      {
        line: 2,
        code: 'VALIDATION_ERROR',
        message: 'points: use a point as the decimal separator (5.50, not 5,50)',
      },
    ]);
    const thousands = await post('accruals', csv('clientId,points', 'A,"1,500"'), { query: 'dryRun=true' });
    expect(thousands.json().errors[0].message).toBe(
      'points: use digits only, with a point as the decimal separator (not 1,500, which reads as thousands or as decimals depending on the language)',
    );
    const accounts = await post('accounts', csv('clientId,points', 'A,"12,5"'), { query: 'dryRun=true' });
    expect(accounts.json().errors).toEqual([
      {
        line: 2,
        code: 'VALIDATION_ERROR',
        message: 'points: use a point as the decimal separator (12.5, not 12,5)',
      },
    ]);
  });
});
