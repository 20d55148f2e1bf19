import type { CsvError } from 'csv-parse';
import { AppError } from '../../lib/app-error';

/*
 * What makes a CSV body no import file (the header, a row, the parser's errors), in words for whoever
 * fixes the file. Read by csv-reader.ts.
 */

/** A file refused whole: 400 naming its line. */
export const invalidCsv = (line: number, why: string) => new AppError('INVALID_CSV', `Line ${line}: ${why}`);

/** The longest row (record) a file may have, in bytes of UTF-8 (the parser counts its buffer). */
export const MAX_RECORD_BYTES = 65_536;

/** The columns a kind of import knows, and those its header must have (one of `oneOf` when given). */
export interface CsvColumns {
  known: readonly string[];
  required: readonly string[];
  oneOf?: readonly string[];
}

/** A header cell as a message names it: bounded (a one-line file's only cell is the whole file), a blank one by place. */
function columnName(names: readonly string[], name: string): string {
  if (name === '') return `(unnamed, column ${names.indexOf(name) + 1})`;
  return name.length > 50 ? `${name.slice(0, 50)}…` : name;
}

const SAVE_AS_CSV = 'save it as "CSV UTF-8 (Comma delimited)" and upload that';

/**
 * A body that is a spreadsheet's own file rather than CSV text, told by its first bytes, or undefined: a
 * workbook is a ZIP (.xlsx, .ods) or an OLE file (.xls), and "Unicode Text" is UTF-16 with its byte order
 * mark. None of these can start a UTF-8 CSV file, so they are named before "not valid UTF-8" would be.
 */
export function notCsvProblem(head: Buffer): AppError | undefined {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04))
    return invalidCsv(1, `this is a spreadsheet workbook (.xlsx or .ods), not a CSV file; ${SAVE_AS_CSV}`);
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))
    return invalidCsv(1, `this is an Excel 97-2003 workbook (.xls), not a CSV file; ${SAVE_AS_CSV}`);
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff))
    return invalidCsv(1, `the file is UTF-16 text ("Unicode Text"), not UTF-8; ${SAVE_AS_CSV}`);
  return undefined;
}

/** The separator a header of one cell was written with instead of commas (';' or a tab), or undefined. */
function otherSeparator(names: readonly string[], columns: CsvColumns): string | undefined {
  if (names.length !== 1) return undefined;
  return [';', '\t'].find(
    (separator) =>
      names[0]!.includes(separator) &&
      names[0]!.split(separator).some((name) => columns.known.includes(name.trim())),
  );
}

const separatorName = (separator: string) => (separator === '\t' ? 'tabs' : `'${separator}'`);

/**
 * A first line `sep=;` is a spreadsheet's hint of the separator, not a header: the file is then written with
 * that separator (Excel in a language with a decimal comma saves ';').
 */
function separatorHintProblem(names: readonly string[]): string | null {
  const hint = /^sep=(.?)$/i.exec(names.join(','));
  if (!hint) return null;
  const separator = hint[1] === '' ? ',' : hint[1]!;
  if (separator === ',')
    return `the first line "${names.join(',')}" is a spreadsheet's hint, not the header row; delete that line`;
  return `the first line "sep=${separator}" says the columns are separated by ${separatorName(separator)}; save the file as "CSV UTF-8 (Comma delimited)" so that commas separate them`;
}

/** Why a header row is not one of `columns`, or null. Columns may come in any order; unknown or repeated ones are refused. */
export function headerProblem(names: readonly string[], columns: CsvColumns): string | null {
  const hint = separatorHintProblem(names);
  if (hint) return hint;
  const separator = otherSeparator(names, columns);
  if (separator)
    return `the columns are separated by ${separatorName(separator)}, not commas; save the file as "CSV UTF-8 (Comma delimited)" so that commas separate them`;
  const unknown = names.filter((n) => !columns.known.includes(n));
  if (unknown.length > 0)
    return `unknown column ${columnName(names, unknown[0]!)}; the columns are ${columns.known.join(',')}`;
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) return `column ${repeated} appears twice`;
  const missing = columns.required.find((n) => !names.includes(n));
  if (missing) return `the header needs the column ${missing}`;
  if (columns.oneOf && columns.oneOf.filter((n) => names.includes(n)).length !== 1)
    return `the header needs exactly one of ${columns.oneOf.join(', ')}`;
  return null;
}

const QUOTE_HELP = 'put a text with a comma or a double quote in double quotes, and double each " inside it';

/**
 * A parser error as the 400 of a file it cannot read on from, in words for whoever fixes the file. An
 * unclosed quote (or a row over MAX_RECORD_BYTES, which an unclosed quote in a large file also is) is
 * named at the line where its row starts, not at the end of the file it ran to.
 */
export function csvProblem(
  error: CsvError,
  at: {
    rowStart: number;
    quoting: boolean;
    names: readonly string[] | undefined;
    /** Lines the parser counted twice so far (a CRLF inside a quoted cell), taken off its line. */
    overcounted: number;
  },
): AppError {
  const line = typeof error.lines === 'number' ? Math.max(1, error.lines - at.overcounted) : 1;
  const column =
    typeof error.column === 'number' ? (at.names?.[error.column] ?? `column ${error.column + 1}`) : 'a cell';
  const size = MAX_RECORD_BYTES.toLocaleString('en-US');
  const unclosed = 'a double quote (") opened on this line is never closed';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return invalidCsv(at.rowStart, `${unclosed}; ${QUOTE_HELP}`);
    case 'CSV_MAX_RECORD_SIZE':
      return at.quoting
        ? invalidCsv(at.rowStart, `${unclosed} within ${size} bytes; ${QUOTE_HELP}`)
        : invalidCsv(at.rowStart, `a row is longer than ${size} bytes`);
    case 'INVALID_OPENING_QUOTE':
      return invalidCsv(
        line,
        `${column} has a double quote (") in a text not in double quotes; ${QUOTE_HELP}`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return invalidCsv(line, `${column} has text after its closing double quote ("); ${QUOTE_HELP}`);
    default:
      return invalidCsv(line, error.message.replace(/ (at|on) line \d+/, ''));
  }
}

/**
 * Why a record of `cells` cells is not a row under a header of `columns`, or undefined. An extra cell is
 * most often a comma in a text that is not in double quotes ("Goodwill, late delivery").
 */
export function cellCountProblem(cells: number, columns: number): string | undefined {
  if (cells === columns) return undefined;
  const counted = `has ${cells} ${cells === 1 ? 'cell' : 'cells'}, the header has ${columns}`;
  return cells > columns ? `${counted} (a comma in a text that is not in double quotes?)` : counted;
}
