import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../test/csv-parse';
import { csvCell, toCsv } from './csv';

async function* rowsOf<T>(rows: T[]) {
  yield* rows;
}

describe('csvCell: formula injection', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+41 22 000', "'+41 22 000"],
    ['-x', "'-x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    // Text that looks like a signed number, outside an amount column: a spreadsheet would make it -42.
    ['-0042', "'-0042"],
    ['-3.00', "'-3.00"],
    ['\tlead tab', "'\tlead tab"],
    ['\rlead cr', "'\rlead cr"],
    ['＝1+1', "'＝1+1"],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ])('defuses %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['a=b', 'a=b'],
    ['12.50', '12.50'],
    ['', ''],
  ])('leaves %j as it is', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('keeps a signed amount in an amount column as it is, and defuses anything else there', () => {
    expect(csvCell('-3.00', true)).toBe('-3.00');
    expect(csvCell('12.50', true)).toBe('12.50');
    expect(csvCell('-x', true)).toBe("'-x");
  });

  it('numbers, booleans, null and structured values', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ reason: '=x', n: 1 })).toBe('{"reason":"=x","n":1}');
  });
});

describe('toCsv: RFC 4180', () => {
  it('header of the field names, CRLF records, quotes only where needed', async () => {
    const csv = await text(
      toCsv(
        ['id', 'note', 'n'],
        rowsOf([
          { id: 'a', note: 'plain', n: 1 },
          { id: 'b', note: 'with, comma', n: -2 },
          { id: 'c', note: 'say "hi"', n: null },
          { id: 'd', note: 'two\nlines', n: 0 },
          { id: 'e', note: 'crlf\r\ninside', n: 3 },
        ]),
      ),
    );
    expect(csv).toBe(
      'id,note,n\r\na,plain,1\r\nb,"with, comma",-2\r\nc,"say ""hi""",\r\nd,"two\nlines",0\r\ne,"crlf\r\ninside",3\r\n',
    );
    expect(parseCsv(csv)).toEqual([
      ['id', 'note', 'n'],
      ['a', 'plain', '1'],
      ['b', 'with, comma', '-2'],
      ['c', 'say "hi"', ''],
      ['d', 'two\nlines', '0'],
      ['e', 'crlf\r\ninside', '3'],
    ]);
  });

  it('a formula inside a quoted field is still defused', async () => {
    const csv = await text(toCsv(['v'], rowsOf([{ v: '=HYPERLINK("http://x","y")' }])));
    expect(parseCsv(csv)).toEqual([['v'], ['\'=HYPERLINK("http://x","y")']]);
  });

  it('no rows: the header alone', async () => {
    expect(await text(toCsv(['a', 'b'], rowsOf([])))).toBe('a,b\r\n');
  });
});
