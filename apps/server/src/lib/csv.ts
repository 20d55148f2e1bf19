import { pipeline, Readable } from 'node:stream';
import { decimalText, needsDefusing, pagedResponse } from '@loyalty/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * Signed amounts ("-3.00") in a `decimalText` column are numbers sent as text for exactness, not formulas: they
 * stay as they are. Only there: a client ID or a SKU such as "-0042" is text, and a spreadsheet would read it
 * as the number -42.
 */
const SIGNED_DECIMAL = /^-\d+(\.\d+)?$/;

/**
 * One wire value as a CSV cell: empty for null, JSON text for a structured value, formulas defused.
 * `amount`: the column holds `decimalText`.
 */
export function csvCell(value: unknown, amount = false): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return needsDefusing(text) && !(amount && SIGNED_DECIMAL.test(text)) ? `'${text}` : text;
}

/** The columns of a wire schema that hold amounts as text (`decimalText`). */
export function amountColumns(item: z.ZodObject): Set<string> {
  return new Set(
    Object.entries(item.shape).flatMap(([column, schema]) => (schema === decimalText ? [column] : [])),
  );
}

/**
 * The CSV of a list: a header row of the wire field names, then one record per row, RFC 4180 quoting and
 * CRLF records by csv-stringify. Streamed with backpressure: the rows are pulled only as fast as the
 * client reads, and a client that goes away stops the database walk (the pipeline destroys the source).
 */
export function toCsv<W extends object>(
  columns: readonly string[],
  rows: AsyncIterable<W>,
  amounts: ReadonlySet<string> = new Set(),
): Readable {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) {
        yield columns.map((column) => csvCell((row as Record<string, unknown>)[column], amounts.has(column)));
      }
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    // With a custom record delimiter csv-stringify would leave a bare LF or CR unquoted (not RFC 4180).
    quote_record_delimiter: true,
  });
  // Errors reach the reply through the destroyed csv stream; the callback only keeps them from being unheard.
  return pipeline(records, csv, () => {});
}

/** A list's 200: its page as JSON, or with `format=csv` every matching row as CSV. */
export function listResponses<T extends z.ZodObject>(item: T) {
  return {
    200: {
      content: {
        'application/json': { schema: pagedResponse(item) },
        'text/csv': {
          schema: z.string().describe(`header row: ${Object.keys(item.shape).join(',')}`),
        },
      },
    },
  };
}

/** Answers a list's `format=csv` with the columns of its wire schema; the download is named after the list and the day. */
export function sendCsv<W extends object>(
  reply: FastifyReply,
  name: string,
  item: z.ZodObject,
  rows: AsyncIterable<W>,
) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .send(toCsv(Object.keys(item.shape), rows, amountColumns(item)));
}
