import { accrualImportRow, type ImportReport, importColumns } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { requestHash } from '../../lib/request-hash';
import type { AuthUser } from '../../plugins/auth';
import { claimKey, findStoredAnswer, storeAnswer } from '../ledger/admin-idempotency.repository';
import { postStagedCredits } from '../ledger/staged-credits';
import {
  accrualsOutcome,
  refuseRenamedAccounts,
  resolveAccrualAccounts,
  stageAccruals,
} from './accruals-stage.repository';
import type { CsvRecord } from './csv-reader';
import type { ImportRow } from './import-rows.repository';
import { type ImportOptions, invalidRow, runImport } from './import-run';
import { withSpooledFile } from './import-spool';
import { ACCRUALS_STAGE, BULK_ROWS, planForBulk } from './imports.repository';

/** A line of a bulk-credits file checked against the contract's row schema. */
function creditRow({ line, cells }: CsvRecord): ImportRow {
  const parsed = accrualImportRow.safeParse(cells);
  if (!parsed.success) return invalidRow(line, parsed.error);
  return {
    line,
    clientId: parsed.data.clientId ?? null,
    cardNumber: parsed.data.cardNumber ?? null,
    points: parsed.data.points,
    expiresAt: null,
    reason: parsed.data.reason ?? null,
    error: null,
    message: null,
  };
}

export interface AccrualsImportOutcome {
  report: ImportReport;
  /** The answer of an earlier import of this file (or key), given again; nothing was written. */
  replayed: boolean;
}

/**
 * POST /api/v1/imports/accruals: each row an adjustment like a manual accrual, the whole file one unit
 * under its Idempotency-Key (default: the body's SHA-256), the programme's and not the poster's: the same file
 * from a second manager is answered as the first, never credited twice.
 * The key is claimed in the import's transaction and stored with its answer only when the file was
 * written: a refused file (or a dry run) leaves the key free, so a corrected retry is not stuck on it.
 */
export async function importAccruals(
  db: Db,
  actor: AuthUser,
  body: NodeJS.ReadableStream,
  options: ImportOptions & { maxBytes: number; idempotencyKey?: string },
): Promise<AccrualsImportOutcome> {
  const read = { columns: importColumns.accruals, maxBytes: options.maxBytes };
  return withSpooledFile(db, body, read, creditRow, async (file) => {
    const key = options.idempotencyKey ?? file.body.sha256;
    // The options are part of the request: the same file with another skipInvalid is another request.
    const hash = requestHash('imports/accruals', String(options.skipInvalid), file.body.sha256);
    let replayed = false;
    const replay = async (trx: Tx) => {
      const earlier = options.dryRun
        ? await findStoredAnswer(trx, { scope: 'bulk-credits', key })
        : await claimKey(trx, { scope: 'bulk-credits', key, hash });
      if (!earlier) return undefined;
      if (earlier.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      replayed = true;
      return earlier.response as ImportReport;
    };
    const report = await runImport(db, {
      kind: 'accruals',
      actor,
      file,
      options,
      replay,
      async merge(trx) {
        // A small file is merged with the planner's own plans (BULK_ROWS).
        const bulk = file.rows >= BULK_ROWS;
        if (bulk) await planForBulk(trx);
        await stageAccruals(trx, file.importId);
        await resolveAccrualAccounts(trx);
        await postStagedCredits(trx, {
          stage: ACCRUALS_STAGE,
          meta: { source: 'import-credit', importId: file.importId },
          createdBy: actor.username,
          existingAccounts: true,
          whenLocked: refuseRenamedAccounts,
          dryRun: options.dryRun,
        });
        return accrualsOutcome(trx);
      },
      remember: (trx, answer) => storeAnswer(trx, { scope: 'bulk-credits', key, status: 200, body: answer }),
    });
    return { report, replayed };
  });
}
