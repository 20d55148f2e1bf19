import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { AppError } from '../../lib/app-error';

export interface CsvRecord {
  /** The file's line the record ends on (the header is line 1). */
  line: number;
  cells: Record<string, string>;
}

export interface CsvBody {
  bytes: number;
  /** SHA-256 (hex) of the body as sent: the default Idempotency-Key of a bulk credit. */
  sha256: string;
}

const invalidCsv = (line: number, why: string) => new AppError('INVALID_CSV', `Line ${line}: ${why}`);

/**
 * The body on its way to the parser: counted (413 past the limit, whatever Content-Length claimed),
 * hashed, and decoded strictly as UTF-8, so a wrong encoding is a 400 naming its line rather than
 * U+FFFD stored in a client ID.
 */
class BodyGuard extends Transform {
  bytes = 0;
  private newlines = 0;
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
      done(invalidCsv(this.newlines + 1, 'the file is not valid UTF-8'));
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
        throw invalidCsv(this.newlines + 1, 'the file is not valid UTF-8');
      }
      if (newline !== -1) this.newlines++;
      start = end;
    }
    return parts.join('');
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

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

/**
 * Reads a CSV body as a stream of records under a header of `columns` (RFC 4180 quoting, a UTF-8 BOM
 * allowed, blank lines and lines of empty cells skipped). Bad quoting, a row with another number of cells or a wrong header is a
 * 400 INVALID_CSV naming the line. `onRecord` sees each record in order; a missing column reads as ''.
 * When it answers a promise, reading waits for it (backpressure down to the request's socket).
 */
export async function readCsv(
  body: NodeJS.ReadableStream,
  options: { columns: CsvColumns; maxBytes: number },
  onRecord: (record: CsvRecord) => Promise<void> | undefined,
): Promise<CsvBody> {
  const guard = new BodyGuard(options.maxBytes);
  // The line the last record ended on, tracked as the parser goes: an unclosed quote is only noticed at
  // the end of the file, and the useful line is where its record began.
  let lastRecordLine = 0;
  const parser = parse({
    bom: true,
    // Every line ending, whichever comes first: left to detect, the parser took the first one for the whole
    // file (a CRLF header over LF rows read as one record), and until it had met one it searched again at
    // every character, so a 48 MB line without a break held the event loop for minutes.
    record_delimiter: ['\r\n', '\n', '\r'],
    // No row of an import comes near this (a reason is at most 500 characters); a longer one is no row.
    max_record_size: MAX_RECORD_BYTES,
    skip_empty_lines: true,
    // A spreadsheet saves the blank rows under its data as lines of commas: blank lines too, not rows that
    // fail for a missing clientId (which, without skipInvalid, would refuse the whole file).
    skip_records_with_empty_values: true,
    info: true,
    on_record: (record, context) => {
      lastRecordLine = context.lines;
      return record;
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
      for (const [i, name] of names.entries()) cells[name] = record[i] ?? '';
      const written = onRecord({ line: info.lines, cells });
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
      const line =
        error.code === 'CSV_QUOTE_NOT_CLOSED'
          ? lastRecordLine + 1
          : typeof error.lines === 'number'
            ? error.lines
            : 1;
      const message =
        error.code === 'CSV_MAX_RECORD_SIZE'
          ? `a row is longer than ${MAX_RECORD_BYTES.toLocaleString('en-US')} bytes`
          : error.message.replace(/ (at|on) line \d+/, '');
      throw invalidCsv(line, message);
    }
    throw error;
  }
  return { bytes: guard.bytes, sha256: guard.digest() };
}
