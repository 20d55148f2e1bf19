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

/** Why a header row is not one of `columns`, or null. Columns may come in any order; unknown or repeated ones are refused. */
export function headerProblem(names: readonly string[], columns: CsvColumns): string | null {
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
  at: { rowStart: number; quoting: boolean; names: readonly string[] | undefined },
): AppError {
  const line = typeof error.lines === 'number' ? error.lines : 1;
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
