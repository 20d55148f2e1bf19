import { accrualImportRow, type ImportReport, importColumns } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { requestHash } from '../../lib/request-hash';
import type { AuthUser } from '../../plugins/auth';
import {
  claimKey,
  findStoredAnswer,
  keepRowsFingerprint,
  type StoredAnswer,
  storeAnswer,
} from '../ledger/admin-idempotency.repository';
import { postStagedCredits } from '../ledger/staged-credits';
import { keyedDigest } from '../member-data/erased-client-secret';
import {
  accrualsOutcome,
  importOfRows,
  keyImportedAt,
  refuseRenamedAccounts,
  resolveAccrualAccounts,
  rowsFingerprint,
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
  if (!parsed.success) return invalidRow(line, parsed.error, cells);
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

/**
 * The request hash stored with a bulk credit key: the file and the skipInvalid it was imported with (the
 * format of the first release: stored hashes stay comparable).
 */
const fileHash = (sha256: string, skipInvalid: boolean) =>
  requestHash('imports/accruals', String(skipInvalid), sha256);

/**
 * Whether a stored hash is of this file, whatever its options. A key's answer is only ever stored for a
 * file that was written (a refused file leaves the key free), so the same file again, with another
 * skipInvalid or as a dry run, is answered as imported: the first answer, never a 409 about a key the
 * user did not send (PROGRAMME-API.md §4 "the same file again returns the first answer"). Stored keyed
 * (`keyedDigest`), or plain by a release before migration 048.
 */
function sameFile(stored: StoredAnswer, sha256: string, secret: string): boolean {
  const form = (hash: string) => (stored.keyed ? keyedDigest(secret, hash) : hash);
  return (
    stored.request_hash === form(fileHash(sha256, false)) ||
    stored.request_hash === form(fileHash(sha256, true))
  );
}

/** Another file under a key already used: a 409 saying so in the words of whoever posted it. */
async function otherFile(trx: Tx, key: string, plainKey: string): Promise<AppError> {
  const at = await keyImportedAt(trx, key, plainKey);
  const when = at ? ` on ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  return new AppError(
    'IDEMPOTENCY_KEY_REUSED',
    `This Idempotency-Key was already used for another file, imported${when}: nothing was imported (a new file needs a new key)`,
  );
}

export interface AccrualsImportOutcome {
  report: ImportReport;
  /** The answer of an earlier import of this file (or key), given again; nothing was written. */
  replayed: boolean;
}

/**
 * POST /api/v1/imports/accruals: each row an adjustment like a manual accrual, the whole file one unit
 * under its Idempotency-Key (default: the body's SHA-256), the programme's and not the poster's: the same file
 * from a second manager, with another skipInvalid or as a dry run is answered as the first (a dry run's answer
 * is then the import's report: `dryRun` false, with its `importId`), never credited twice.
 * The key is claimed in the import's transaction and stored with its answer only when the file was
 * written: a refused file (or a dry run) leaves the key free, so a corrected retry is not stuck on it.
 * An import that credited stores its rows' fingerprint with the key, and a dry run of a file with exactly
 * those rows, saved otherwise (another body, so another default key), names that import (`duplicateOf`).
 */
export async function importAccruals(
  db: Db,
  actor: AuthUser,
  body: NodeJS.ReadableStream,
  /**
   * `keySecret`: member-data's `erasedClientSecret`. The key, the request hash and the rows' fingerprint are
   * stored keyed with it: the default key is the body's SHA-256, and the body of a one-row file is a guess of
   * an erased member's client ID away from it (as its rows' fingerprint is). The key a client sends or
   * defaults to is unchanged (PROGRAMME-API §4).
   */
  options: ImportOptions & { maxBytes: number; idempotencyKey?: string; keySecret: string },
): Promise<AccrualsImportOutcome> {
  const read = { columns: importColumns.accruals, maxBytes: options.maxBytes };
  const digest = (plain: string) => keyedDigest(options.keySecret, plain);
  return withSpooledFile(db, body, read, creditRow, async (file) => {
    const plainKey = options.idempotencyKey ?? file.body.sha256;
    const key = digest(plainKey);
    const hash = digest(fileHash(file.body.sha256, options.skipInvalid));
    let replayed = false;
    const replay = async (trx: Tx) => {
      const earlier = options.dryRun
        ? await findStoredAnswer(trx, { scope: 'bulk-credits', key, plainKey })
        : await claimKey(trx, { scope: 'bulk-credits', key, hash, keyed: true, plainKey });
      if (!earlier) return undefined;
      if (!sameFile(earlier, file.body.sha256, options.keySecret)) throw await otherFile(trx, key, plainKey);
      replayed = true;
      return earlier.response as ImportReport;
    };
    const report = await runImport(db, {
      kind: 'accruals',
      actor,
      file,
      options,
      keySecret: options.keySecret,
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
      async remember(trx, answer) {
        await storeAnswer(trx, { scope: 'bulk-credits', key, status: 200, body: answer });
        const fingerprint = answer.created > 0 ? await rowsFingerprint(trx, file.importId) : undefined;
        if (fingerprint) await keepRowsFingerprint(trx, key, digest(fingerprint));
      },
    });
    if (replayed || !report.dryRun) return { report, replayed };
    // Read after the dry run's transaction, from the spool, which is kept until this answer is given.
    const fingerprint = await rowsFingerprint(db, file.importId);
    const duplicateOf =
      fingerprint && (await importOfRows(db, { keyed: digest(fingerprint), plain: fingerprint }));
    return { report: duplicateOf ? { ...report, duplicateOf } : report, replayed };
  });
}
