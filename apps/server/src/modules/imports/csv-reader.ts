import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { needsDefusing } from '@loyalty/contracts';
import { CsvError, parse } from 'csv-parse';
import { AppError } from '../../lib/app-error';
import {
  type CsvColumns,
  cellCountProblem,
  csvProblem,
  headerProblem,
  invalidCsv,
  MAX_RECORD_BYTES,
  notCsvProblem,
} from './csv-problems';

export type { CsvColumns } from './csv-problems';

export interface CsvRecord {
  /** The file's line the record ends on (the header is line 1). */
  line: number;
  cells: Record<string, string>;
  /** Why the record is no row of the header (another number of cells): an error row, the cells left empty. */
  problem?: string;
}

export interface CsvBody {
  bytes: number;
  /** SHA-256 (hex) of the body as sent: the default Idempotency-Key of a bulk credit. */
  sha256: string;
}

/**
 * A cell as the file means it: the exports write a text cell that a spreadsheet would run as a formula with
 * a `'` before it (lib/csv.ts `csvCell`), and an exported file imported back must name the same client IDs
 * and card numbers (`'-0042` is the export of `-0042`, `''-0042` of `'-0042`). One `'` is dropped from a cell
 * the exports would have defused (`needsDefusing`); any other `'` is the cell's own.
 */
export function importCell(cell: string): string {
  return cell.startsWith("'") && needsDefusing(cell.slice(1)) ? cell.slice(1) : cell;
}

/** The lines a record's cells hold inside quotes beyond what the parser counted: each CRLF it counts twice. */
function crlfsIn(cells: readonly string[]): number {
  let n = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf('\r\n'); at !== -1; at = cell.indexOf('\r\n', at + 2)) n++;
  }
  return n;
}

/**
 * The body on its way to the parser: counted (413 past the limit, whatever Content-Length claimed),
 * hashed, and decoded strictly as UTF-8, so a wrong encoding is a 400 naming its line rather than
 * U+FFFD stored in a client ID. A spreadsheet's own file (a workbook, UTF-16 text) is named as such from
 * its first bytes, with what to save instead.
 */
class BodyGuard extends Transform {
  bytes = 0;
  private newlines = 0;
  /** The body's first bytes (up to 8), for `notCsvProblem`. */
  private head = Buffer.alloc(0);
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxBytes: number) {
    super({ readableObjectMode: false });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${this.maxBytes} bytes`));
      return;
    }
    this.hash.update(chunk);
    if (this.head.length < 8) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, 8 - this.head.length)]);
      const problem = notCsvProblem(this.head);
      if (problem) {
        done(problem);
        return;
      }
    }
    try {
      done(null, this.decode(chunk));
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback) {
    try {
      this.decoder.decode();
      done();
    } catch {
      done(this.notUtf8());
    }
  }

  /**
   * Decodes line by line (a newline byte is never inside a UTF-8 sequence), so an invalid byte is
   * reported on its own line.
   */
  private decode(chunk: Buffer): string {
    const parts: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      try {
        parts.push(this.decoder.decode(chunk.subarray(start, end), { stream: true }));
      } catch {
        throw this.notUtf8();
      }
      if (newline !== -1) this.newlines++;
      start = end;
    }
    return parts.join('');
  }

  private notUtf8(): AppError {
    return notCsvProblem(this.head) ?? invalidCsv(this.newlines + 1, 'the file is not valid UTF-8');
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Reads a CSV body as a stream of records under a header of `columns` (RFC 4180 quoting, a UTF-8 BOM
 * allowed, blank lines and lines of empty cells skipped). A row with another number of cells than the
 * header is a record with a `problem` (an error row of the report, so skipInvalid imports the others).
 * What the parser cannot find the next row after (bad quoting: an unclosed quote runs on to the end of the
 * file; a row over MAX_RECORD_BYTES), or a wrong header, is a 400 INVALID_CSV naming the line. `onRecord` sees
 * each record in order; a missing column reads as ''.
 * A cell the exports defused as `'` + formula character reads without its `'` (`importCell`).
 * When it answers a promise, reading waits for it (backpressure down to the request's socket).
 */
export async function readCsv(
  body: NodeJS.ReadableStream,
  options: { columns: CsvColumns; maxBytes: number },
  onRecord: (record: CsvRecord) => Promise<void> | undefined,
): Promise<CsvBody> {
  const guard = new BodyGuard(options.maxBytes);
  // The line the last record ended on, and the blank lines the parser had skipped by then, tracked as it
  // goes: an unclosed quote is only noticed at the end of the file, and the useful line is where its record
  // began, past the blank lines after the last record.
  let lastRecordLine = 0;
  let emptyLinesThen = 0;
  // The parser counts a CRLF inside a quoted cell as two lines (its CR and its LF): the lines it over-counted
  // up to the last record, taken off every line it names.
  let overcounted = 0;
  // The header's names as the parser met them: a parser error may come before `consume` has read them.
  let header: string[] | undefined;
  const parser = parse({
    bom: true,
    // Every line ending, whichever comes first: left to detect, the parser took the first one for the whole
    // file (a CRLF header over LF rows read as one record), and until it had met one it searched again at
    // every character, so a 48 MB line without a break held the event loop for minutes.
    record_delimiter: ['\r\n', '\n', '\r'],
    // No row of an import comes near this (a reason is at most 500 characters); a longer one is no row.
    max_record_size: MAX_RECORD_BYTES,
    skip_empty_lines: true,
    // Another number of cells is the row's error, not the file's (checked in `consume`).
    relax_column_count: true,
    info: true,
    on_record: (record, context) => {
      // With `info`, the record comes as {record, info}.
      const cells = (record as unknown as { record: string[] }).record;
      overcounted += crlfsIn(cells);
      lastRecordLine = context.lines - overcounted;
      emptyLinesThen = context.empty_lines;
      // A spreadsheet saves the blank rows under its data as lines of commas: blank lines too (skipped here,
      // where their line still counts), not rows that fail for a missing clientId (which, without
      // skipInvalid, would refuse the whole file).
      if (cells.every((cell) => cell === '')) return null;
      header ??= cells.map((n) => n.trim());
      // The record with the file's line (`consume` reads only `info.lines`). csv-parse types `on_record`'s
      // record as the bare cells although, with `info: true`, it passes and expects {record, info}: hence the
      // casts here and above, which a csv-parse that typed the info form would make unnecessary.
      return { record: cells, info: { lines: lastRecordLine } } as unknown as typeof record;
    },
  });
  let names: string[] | undefined;
  const consume = async function* (records: AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    for await (const { record, info } of records) {
      if (!names) {
        names = record.map((n) => n.trim());
        const problem = headerProblem(names, options.columns);
        if (problem) throw invalidCsv(info.lines, problem);
        continue;
      }
      const cells: Record<string, string> = {};
      const problem = cellCountProblem(record.length, names.length);
      if (!problem) for (const [i, name] of names.entries()) cells[name] = importCell(record[i] ?? '');
      const written = onRecord(problem ? { line: info.lines, cells, problem } : { line: info.lines, cells });
      if (written) await written;
    }
    if (!names) throw invalidCsv(1, 'the file is empty; it needs a header row');
  };
  // Piped, not in the pipeline: a refused file must not destroy the request, whose socket still carries
  // the answer. What the client still sends is read and dropped.
  body.on('error', (error) => guard.destroy(error));
  body.pipe(guard);
  try {
    await pipeline(guard, parser, consume);
  } catch (error) {
    body.unpipe(guard);
    body.resume();
    if (error instanceof CsvError) {
      // The parser's own state: whether it was inside a quoted cell when it gave up (not in its error).
      const quoting = (parser as unknown as { state?: { quoting?: boolean } }).state?.quoting === true;
      const skipped = parser.info.empty_lines - emptyLinesThen;
      throw csvProblem(error, {
        rowStart: lastRecordLine + 1 + skipped,
        quoting,
        names: header,
        overcounted,
      });
    }
    throw error;
  }
  return { bytes: guard.bytes, sha256: guard.digest() };
}
