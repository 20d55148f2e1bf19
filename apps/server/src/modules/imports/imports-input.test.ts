import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// Bad CSV, oversize bodies, content types and roles of the import routes.
const ctx = await createTestContext({ IMPORT_MAX_BYTES: '4096' });
const post = importer(ctx);

describe('import input', () => {
  it.each([
    ['a wrong header', csv('client,points', 'A,1'), 1, 'unknown column client'],
    ['a header without clientId', csv('cardNumber,points', '12345678,1'), 1, 'needs the column clientId'],
    ['a column twice', csv('clientId,clientId', 'A,B'), 1, 'appears twice'],
    ['an empty file', '', 1, 'header row'],
    ['an unclosed quote', csv('clientId,reason', 'A,ok', 'B,"never closed'), 3, 'never closed'],
    ['a stray quote', csv('clientId,reason', 'A,ok', 'B,ok', 'C,bad"quote'), 4, 'reason has a double quote'],
  ])('%s is 400 INVALID_CSV naming the line', async (_, body, line, why) => {
    const res = await post('accounts', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_CSV' });
    expect(res.json().message).toMatch(new RegExp(`^Line ${line}: `));
    expect(res.json().message.toLowerCase()).toContain(why.toLowerCase());
  });

  it('rows end at CRLF, LF or CR, mixed in one file, and errors name the file line', async () => {
    // A CRLF header over LF rows (rows a script appended to a spreadsheet's file) was one record, refused.
    const mixed = await post('accounts', 'clientId,points\r\nMIX-1,1\nMIX-2,2\rMIX-3,3\n', {
      query: 'dryRun=true',
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(mixed.json()).toMatchObject({ rows: 3, created: 3, failed: 0 });
    // An LF header over CRLF rows counted every CR as a line of its own: errors named lines 3 and 5.
    const lines = await post('accounts', 'clientId,points\nMIX-4,x\r\nMIX-5,y\r\n', { query: 'dryRun=true' });
    expect(lines.json().errors.map((e: { line: number }) => e.line)).toEqual([2, 3]);
  });

  it('a header cell is named in at most 50 characters, and a blank one by its place', async () => {
    const long = await post('accounts', csv(`clientId,${'x'.repeat(300)}`, 'A,1'));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(
      `Line 1: unknown column ${'x'.repeat(50)}…; the columns are clientId,cardNumber,points,expiresAt,reason`,
    );
    const blank = await post('accounts', csv('clientId,,points', 'A,,1'));
    expect(blank.json().message).toMatch(/^Line 1: unknown column \(unnamed, column 2\);/);
  });

  it('a file that is not UTF-8 is 400 naming the line', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('clientId,reason\r\nA,ok\r\nB,caf'),
      Buffer.from([0xe9]),
      Buffer.from('\r\n'),
    ]);
    const res = await post('accounts', latin1);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_CSV', message: 'Line 3: the file is not valid UTF-8' });
  });

  it('a UTF-8 byte order mark and quoted cells are fine', async () => {
    const res = await post('accounts', `\uFEFF${csv('clientId,reason', '"IN,1","say ""hi"""')}`, {
      query: 'dryRun=true',
    });
    expect(res.json()).toMatchObject({ rows: 1, created: 1, failed: 0 });
  });

  it('a line of empty cells (a spreadsheet saves its blank rows so) is skipped as a blank line is', async () => {
    const res = await post(
      'accounts',
      csv('clientId,cardNumber,reason', 'EMPTY-1,,ok', ',,', '', '"",,', 'EMPTY-2,x,'),
      {
        query: 'dryRun=true&skipInvalid=true',
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    // Line numbers stay the file's: the bad card number is on line 6.
    expect(res.json()).toMatchObject({ rows: 2, created: 1, failed: 1 });
    expect(res.json().errors).toEqual([expect.objectContaining({ line: 6 })]);
  });

  it('a NUL in a cell is an error row naming its line and column, never a 500', async () => {
    // PostgreSQL cannot store NUL in text: spooled as it is, the row failed the whole request with 500.
    const members = await post(
      'accounts',
      csv('clientId,reason', 'NUL-1,fine', 'NUL-2,a\u0000b', 'NUL\u0000-3,'),
      { query: 'skipInvalid=true' },
    );
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json()).toMatchObject({ rows: 3, created: 1, failed: 2 });
    expect(members.json().errors).toEqual([
      { line: 3, code: 'VALIDATION_ERROR', message: 'reason: must not contain NUL characters' },
      { line: 4, code: 'VALIDATION_ERROR', message: 'clientId: must not contain NUL characters' },
    ]);
    const credits = await post('accruals', csv('clientId,points,reason', 'NUL-1,5,a\u0000b'));
    expect(credits.statusCode, credits.body).toBe(200);
    expect(credits.json()).toMatchObject({ rows: 1, created: 0, failed: 1 });
    expect(credits.json().errors).toEqual([
      { line: 2, code: 'VALIDATION_ERROR', message: 'reason: must not contain NUL characters' },
    ]);
  });

  it('a client ID that shows nothing or holds a control character is an error row', async () => {
    const members = await post('accounts', csv('clientId', '\u200b', '"a\tb"', 'VISIBLE-1'), {
      query: 'dryRun=true',
    });
    expect(members.json()).toMatchObject({ rows: 3, created: 1, failed: 2 });
    expect(members.json().errors).toEqual([
      { line: 2, code: 'VALIDATION_ERROR', message: 'clientId: clientId is required' },
      {
        line: 3,
        code: 'VALIDATION_ERROR',
        message: 'clientId: must not contain tabs, line breaks or other control characters',
      },
    ]);
  });

  it('points out of range are error rows that say why: positive (an import only credits), 2 decimals, the limit', async () => {
    const res = await post(
      'accounts',
      csv('clientId,points', 'NEG-1,-5', 'NEG-2,1.234', 'NEG-3,1000000001'),
      {
        query: 'dryRun=true',
      },
    );
    const messages = res.json().errors.map((e: { message: string }) => e.message);
    // Before: both said "must be a number of points with at most 2 decimal places".
    expect(messages).toEqual([
      expect.stringMatching(/points.*must be a positive number of points/),
      expect.stringMatching(/points.*at most 2 decimal places/),
      // Grouped as the console's own limits are ("1000000000" before).
      expect.stringMatching(/points.*must be at most 1,000,000,000/),
    ]);
  });

  it('a client ID over 100 characters is an error row that says so, not "clientId is required"', async () => {
    const long = 'L'.repeat(101);
    const members = await post('accounts', csv('clientId', long, 'L'.repeat(100)), { query: 'dryRun=true' });
    expect(members.json()).toMatchObject({ rows: 2, created: 1, failed: 1 });
    expect(members.json().errors).toEqual([
      { line: 2, code: 'VALIDATION_ERROR', message: 'clientId: must be at most 100 characters' },
    ]);
    const credits = await post('accruals', csv('clientId,points', `${long},5`), { query: 'dryRun=true' });
    expect(credits.json().errors).toEqual([
      { line: 2, code: 'VALIDATION_ERROR', message: 'clientId: must be at most 100 characters' },
    ]);
  });

  it('a body past IMPORT_MAX_BYTES is 413, declared or streamed', async () => {
    const big = csv('clientId', ...Array.from({ length: 1000 }, (_, i) => `BIG-${i}`));
    const declared = await post('accounts', big);
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    // Chunked: no Content-Length, so the count while reading decides.
    const { Readable } = await import('node:stream');
    const streamed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/imports/accruals',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
      payload: Readable.from([big]),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a viewer is 403 before the file is read; an anonymous caller 401', async () => {
    for (const kind of ['accounts', 'accruals'] as const) {
      const res = await post(kind, 'not,a,valid,header', { token: ctx.tokens.VIEWER });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts',
      headers: { 'content-type': 'text/csv' },
      payload: 'clientId\r\nA\r\n',
    });
    expect(anonymous.statusCode).toBe(401);
    const admin = await post('accounts', csv('clientId', 'ADMIN-OK'), {
      token: ctx.tokens.ADMIN,
      query: 'dryRun=true',
    });
    expect(admin.statusCode).toBe(200);
  });

  it('JSON is 415 on the import routes and text/csv stays 415 on JSON routes', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { clientId: 'A' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const csvToJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
      payload: 'clientId\r\nA\r\n',
    });
    expect(csvToJson.statusCode).toBe(415);
    expect(csvToJson.json().message).toBe('Content type must be application/json');
  });

  it.each([
    ['text/plain', 'text/plain'],
    ["a spreadsheet's label for .csv", 'application/vnd.ms-excel'],
    ['JSON', 'application/json'],
    ['none', undefined],
  ])('a 415 of an import route names text/csv whatever was sent (%s)', async (_, type) => {
    for (const kind of ['accounts', 'accruals'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/imports/${kind}`,
        headers: { ...bearer(ctx.tokens.MANAGER), ...(type ? { 'content-type': type } : {}) },
        payload: type === 'application/json' ? '{"clientId":"A"}' : 'clientId\r\nA\r\n',
      });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Content type must be text/csv',
      });
    }
  });

  it('bad query flags are 400 VALIDATION_ERROR', async () => {
    const res = await post('accounts', csv('clientId', 'Q'), { query: 'dryRun=yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('a row longer than 65,536 bytes is 400 at once (a file of one long line held the server)', async () => {
    const app = await buildTestApp(ctx.database);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/imports/accounts?dryRun=true',
        headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
        payload: 'a'.repeat(2 * 1024 * 1024),
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'INVALID_CSV',
        message: 'Line 1: a row is longer than 65,536 bytes',
      });
    } finally {
      await app.close();
    }
  });

  it('the default limit is 50 MB', async () => {
    const app = await buildTestApp(ctx.database);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/imports/accounts',
        headers: {
          ...bearer(ctx.tokens.MANAGER),
          'content-type': 'text/csv',
          'content-length': String(50 * 1024 * 1024 + 1),
        },
        payload: 'clientId\r\n',
      });
      expect(res.statusCode).toBe(413);
    } finally {
      await app.close();
    }
  });
});
