import { createHash, randomUUID } from 'node:crypto';
import { accrualImportRow, type ImportError, type ImportReport, importColumns } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import type { AuthUser } from '../../plugins/auth';
import { claimKey, storeAnswer } from '../accounts/idempotency-keys.repository';
import { postStagedCredits } from '../ledger/staged-credits';
import { readCsv } from './csv-reader';
import { type ImportOptions, type ReadFile, runImport, validationError } from './import-run';
import {
  ACCRUALS_STAGE,
  accrualsOutcome,
  findStoredAnswer,
  planForBulk,
  resolveAccrualAccounts,
  type StagedAccrualRows,
  stageAccruals,
} from './imports.repository';

async function readAccrualsFile(
  body: NodeJS.ReadableStream,
  maxBytes: number,
): Promise<{ file: ReadFile; rows: StagedAccrualRows }> {
  const rows: StagedAccrualRows = { line: [], clientId: [], cardNumber: [], points: [], reason: [] };
  const errors: ImportError[] = [];
  let count = 0;
  const read = await readCsv(body, { columns: importColumns.accruals, maxBytes }, ({ line, cells }) => {
    count++;
    const parsed = accrualImportRow.safeParse(cells);
    if (!parsed.success) {
      errors.push(validationError(line, parsed.error));
      return;
    }
    rows.line.push(line);
    rows.clientId.push(parsed.data.clientId ?? null);
    rows.cardNumber.push(parsed.data.cardNumber ?? null);
    rows.points.push(parsed.data.points);
    rows.reason.push(parsed.data.reason ?? null);
  });
  return { file: { rows: count, errors, body: read }, rows };
}

export interface AccrualsImportOutcome {
  report: ImportReport;
  /** The answer of an earlier import of this file (or key), given again; nothing was written. */
  replayed: boolean;
}

/**
 * POST /api/v1/imports/accruals: each row an adjustment like a manual accrual, the whole file one unit
 * under its Idempotency-Key (default: the body's SHA-256), scoped to the user like manual accrual's keys.
 * The key is claimed in the import's transaction and stored with its answer only when the file was
 * written: a refused file (or a dry run) leaves the key free, so a corrected retry is not stuck on it.
 */
export async function importAccruals(
  db: Db,
  actor: AuthUser,
  body: NodeJS.ReadableStream,
  options: ImportOptions & { maxBytes: number; idempotencyKey?: string },
): Promise<AccrualsImportOutcome> {
  const { file, rows } = await readAccrualsFile(body, options.maxBytes);
  const key = options.idempotencyKey ?? file.body.sha256;
  // The options are part of the request: the same file with another skipInvalid is another request.
  const hash = createHash('sha256')
    .update(`imports/accruals\n${options.skipInvalid}\n${file.body.sha256}`)
    .digest('hex');
  const importId = randomUUID();
  let replayed = false;
  const replay = async (trx: Tx) => {
    const earlier = options.dryRun
      ? await findStoredAnswer(trx, { userId: actor.id, key })
      : await claimKey(trx, { userId: actor.id, key, hash });
    if (!earlier) return undefined;
    if (earlier.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    replayed = true;
    return earlier.response as ImportReport;
  };
  const report = await runImport(db, {
    kind: 'accruals',
    importId,
    actor,
    file,
    options,
    replay,
    async merge(trx) {
      await planForBulk(trx);
      await stageAccruals(trx, rows);
      await resolveAccrualAccounts(trx);
      await postStagedCredits(trx, {
        stage: ACCRUALS_STAGE,
        meta: { source: 'import-credit', importId },
        createdBy: actor.username,
        existingAccounts: true,
      });
      return accrualsOutcome(trx);
    },
    remember: (trx, answer) => storeAnswer(trx, { userId: actor.id, key, status: 200, body: answer }),
  });
  return { report, replayed };
}
