import {
  errorCatalogue,
  type ImportError,
  type ImportKind,
  type ImportReport,
  isErrorCode,
  unstorableText,
} from '@loyalty/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { keyedDigest } from '../member-data/erased-client-secret';
import type { CsvRecord } from './csv-reader';
import { countImportRows, type ImportRow } from './import-rows.repository';
import type { SpooledFile } from './import-spool';
import type { StageOutcome } from './imports.repository';

export interface ImportOptions {
  dryRun: boolean;
  skipInvalid: boolean;
}

/** Thrown out of the transaction to roll it back with the answer: a dry run, or a refused file. */
class NothingWritten extends Error {
  constructor(readonly report: ImportReport) {
    super('import rolled back');
  }
}

/** A line kept out of the import: spooled with its error, so the report reads one place. */
function errorRow(line: number, message: string, code = 'VALIDATION_ERROR'): ImportRow {
  return {
    line,
    clientId: null,
    cardNumber: null,
    points: null,
    expiresAt: null,
    reason: null,
    error: code,
    message,
  };
}

/** Points written with a decimal comma ("5,50", in double quotes), as a spreadsheet in many languages shows them. */
const DECIMAL_COMMA = /^\d+,\d{1,2}$/;
/** Points with what may be thousands separators ("1,500", in double quotes): 1500, or 1.5 in some languages. */
const THOUSANDS_COMMAS = /^\d{1,3}(,\d{3})+$/;

/**
 * A line the contract's row schema refused. Points written as a spreadsheet shows them are told so: "must be
 * a positive number" misled whoever had typed 5,50.
 */
export function invalidRow(line: number, error: z.ZodError, cells: Record<string, string>): ImportRow {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  const points = cells.points?.trim() ?? '';
  if (field === 'points' && DECIMAL_COMMA.test(points))
    return errorRow(
      line,
      `points: use a point as the decimal separator (${points.replace(',', '.')}, not ${points})`,
    );
  if (field === 'points' && THOUSANDS_COMMAS.test(points))
    return errorRow(
      line,
      `points: use digits only, with a point as the decimal separator (not ${points}, which reads as thousands or as decimals depending on the language)`,
    );
  return errorRow(line, field ? `${field}: ${issue.message}` : issue.message);
}

/** A line that is no row of the header (another number of cells: `CsvRecord.problem`), or undefined. */
export function malformedRow({ line, problem }: CsvRecord): ImportRow | undefined {
  return problem === undefined ? undefined : errorRow(line, problem, 'INVALID_CSV');
}

/**
 * A line with a cell PostgreSQL cannot store (NUL; the body was decoded as strict UTF-8, so no lone
 * surrogate gets this far), or undefined. Checked before the row schema: spooled as it is, such a cell
 * failed the whole request with a 500 where the JSON routes answer a 400 naming the field
 * (plugins/input.ts); here it is an error row naming the column.
 */
export function unstorableRow({ line, cells }: CsvRecord): ImportRow | undefined {
  const column = Object.keys(cells).find((name) => unstorableText(cells[name]!));
  return column === undefined ? undefined : errorRow(line, `${column}: must not contain NUL characters`);
}

function reportedErrors(outcome: StageOutcome): ImportError[] {
  return outcome.errors.map(({ line, code, message }) => ({
    line,
    code,
    message: message ?? (isErrorCode(code) ? errorCatalogue[code].message : code),
  }));
}

const KIND_LABEL: Record<ImportKind, string> = { accounts: 'members', accruals: 'bulk credits' };

export interface ImportRun {
  kind: ImportKind;
  actor: AuthUser;
  file: SpooledFile;
  options: ImportOptions;
  /**
   * member-data's `erasedClientSecret`: the audit entry's `fileDigest` is the body's SHA-256 keyed with it. Plain,
   * a one-row file's was a guess of an erased member's client ID away from the body, which the audit tied to
   * the member's kept operations by the importId (migration 048). Keyed, the same file still has the same one.
   */
  keySecret: string;
  /** Stages and merges the rows; answers what the merge did. Runs again if the transaction is retried. */
  merge(trx: Tx): Promise<StageOutcome>;
  /** Bulk credits: an earlier answer under the file's key, checked first (and the key claimed). */
  replay?(trx: Tx): Promise<ImportReport | undefined>;
  /** Bulk credits: the answer stored under the key, with the work it answers for. */
  remember?(trx: Tx, report: ImportReport): Promise<void>;
}

/**
 * One file, one transaction: merge, then either commit with one audit entry holding the counts, or roll
 * everything back and answer what would have happened (a dry run; a file with an invalid row and no
 * skipInvalid). A dry run counts as if skipInvalid were set, so it shows what the valid rows would do.
 */
export async function runImport(db: Db, run: ImportRun): Promise<ImportReport> {
  try {
    return await inTransaction(db, async (trx) => {
      const earlier = await run.replay?.(trx);
      if (earlier) return earlier;
      // The spool is unlogged: a database crash or failover while the body streamed in empties it (and the
      // sweep of abandoned rows takes an upload slower than an hour). Imported, what is left would be
      // answered as the whole file, and a bulk credit's answer kept under the file's key for good.
      if ((await countImportRows(trx, run.file.importId)) !== run.file.rows) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The file was not received whole (the database restarted meanwhile); nothing was imported: send it again',
        );
      }
      const outcome = await run.merge(trx);
      const report: ImportReport = {
        dryRun: run.options.dryRun,
        rows: run.file.rows,
        created: outcome.created,
        unchanged: outcome.unchanged,
        failed: outcome.failed,
        errors: reportedErrors(outcome),
      };
      if (run.options.dryRun) throw new NothingWritten(report);
      if (report.failed > 0 && !run.options.skipInvalid)
        throw new NothingWritten({ ...report, created: 0, unchanged: 0 });
      const written = { ...report, importId: run.file.importId };
      await insertAudit(trx, {
        username: run.actor.username,
        message: `Imported ${KIND_LABEL[run.kind]} from CSV: ${report.created} created, ${report.unchanged} unchanged, ${report.failed} failed`,
        targetType: 'import',
        targetId: run.file.importId,
        source: null,
        dest: {
          kind: run.kind,
          rows: report.rows,
          created: report.created,
          unchanged: report.unchanged,
          failed: report.failed,
          bytes: run.file.body.bytes,
          fileDigest: keyedDigest(run.keySecret, run.file.body.sha256),
        },
      });
      await run.remember?.(trx, written);
      return written;
    });
  } catch (error) {
    if (error instanceof NothingWritten) return error.report;
    throw error;
  }
}
