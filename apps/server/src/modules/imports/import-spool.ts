import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection';
import { type CsvBody, type CsvColumns, type CsvRecord, readCsv } from './csv-reader';
import {
  deleteImportRows,
  emptyColumns,
  type ImportRow,
  type ImportRowColumns,
  insertImportRows,
  sweepAbandonedImportRows,
} from './import-rows.repository';
import { malformedRow, unstorableRow } from './import-run';

/**
 * Rows per spool statement: what the server holds of a file at any moment, whatever the file's size
 * (issue 11: 100,000 rows held as arrays and maps took the server from 203 to 490 MB).
 */
const SPOOL_BATCH = 2000;

/** A file read into the spool: `importId` names its rows in `import_rows` (and the import itself). */
export interface SpooledFile {
  importId: string;
  /** Data rows in the file, valid or not. */
  rows: number;
  body: CsvBody;
}

class RowSpool {
  private batch: ImportRowColumns = emptyColumns();

  constructor(
    private readonly db: Db,
    private readonly importId: string,
  ) {}

  add(row: ImportRow): Promise<void> | undefined {
    for (const key of Object.keys(this.batch) as (keyof ImportRow)[])
      (this.batch[key] as unknown[]).push(row[key]);
    return this.batch.line.length >= SPOOL_BATCH ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.batch.line.length === 0) return;
    const batch = this.batch;
    this.batch = emptyColumns();
    await insertImportRows(this.db, this.importId, batch);
  }
}

/**
 * Streams a CSV body into the spool, each record turned into a row (or its error) by `toRow`, then runs
 * `work` on it. The parser waits for each batch's insert, so a fast client cannot pile rows up in memory.
 * The spooled rows are deleted afterwards, whatever happened: a dry run, a refused file, an error.
 */
export async function withSpooledFile<T>(
  db: Db,
  body: NodeJS.ReadableStream,
  options: { columns: CsvColumns; maxBytes: number },
  toRow: (record: CsvRecord) => ImportRow,
  work: (file: SpooledFile) => Promise<T>,
): Promise<T> {
  await sweepAbandonedImportRows(db);
  const importId = randomUUID();
  const spool = new RowSpool(db, importId);
  try {
    let rows = 0;
    const read = await readCsv(body, options, (record) => {
      rows++;
      return spool.add(malformedRow(record) ?? unstorableRow(record) ?? toRow(record));
    });
    await spool.flush();
    return await work({ importId, rows, body: read });
  } finally {
    // A failure here (the database gone) must not hide the import's own answer or error; rows left
    // behind are swept by a later import.
    await deleteImportRows(db, importId).catch(() => undefined);
  }
}
