import { randomUUID } from 'node:crypto';
import type { Paged, PosKey, PosKeyStatus } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { type Created, createUnderKey } from '../ledger/admin-idempotency';
import type { KeyCrypto } from './key-crypto';
import {
  findPosKey,
  findPosKeyCipher,
  insertPosKey,
  keyHashExists,
  listPosKeys,
  type PosKeyFilter,
  posKeysExportSource,
  toPosKey,
  updatePosKeyStatus,
} from './pos-keys.repository';

export async function listPosKeysPage(db: Db, filter: PosKeyFilter): Promise<Paged<PosKey>> {
  const { rows, total } = await listPosKeys(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every row the filter matches, in the list's order (its CSV export). */
export function exportPosKeys(db: Db, filter: PosKeyFilter): AsyncIterable<PosKey> {
  return streamList(posKeysExportSource(db, filter), { snapshot: db });
}

interface NewPosKey {
  name: string;
  address: string | null;
  apiKey: string;
  status: PosKeyStatus;
}

const UNUSABLE_KEY = 'This API key cannot be used. Generate a new one.';

/**
 * A key whose value exists is refused like any other unusable value: a 400 that does not say the key
 * exists, so this endpoint cannot be used to test guessed keys (issue 15.7).
 */
function unusableKey() {
  return new AppError('VALIDATION_ERROR', `apiKey: ${UNUSABLE_KEY}`, [
    { field: 'apiKey', message: UNUSABLE_KEY },
  ]);
}

/**
 * A new POS key. With an Idempotency-Key (`createUnderKey`), the same request again gets the first answer
 * back: a key whose creation's answer was lost is not refused as one that "cannot be used" by its own retry.
 */
export async function createPosKey(
  db: Db,
  crypto: KeyCrypto,
  actor: AuthUser,
  input: NewPosKey,
  idempotencyKey?: string,
): Promise<Created<PosKey>> {
  const id = randomUUID();
  const keyHash = crypto.hash(input.apiKey);
  const keyCipher = crypto.encrypt(input.apiKey, id);
  // The key itself stays out of the request hash (a plain SHA-256 a dump could test guesses on): its keyed
  // lookup hash tells two requests apart as well. The answer never carries the key, so nothing else to hide.
  const keyed = {
    key: idempotencyKey,
    userId: actor.id,
    route: 'create-pos-key',
    request: { ...input, apiKey: keyHash },
  };
  try {
    return await inTransaction(db, (trx) =>
      createUnderKey(trx, keyed, async () => {
        if (await keyHashExists(trx, keyHash)) throw unusableKey();
        const created = await insertPosKey(trx, {
          id,
          name: input.name,
          address: input.address,
          keyHash,
          keyCipher,
          status: input.status,
        });
        await insertAudit(trx, {
          username: actor.username,
          message: `Created POS key '${created.name}'`,
          targetType: 'pos_key',
          targetId: created.id,
          source: null,
          dest: created,
        });
        return created;
      }),
    );
  } catch (error) {
    // Two concurrent creates of one key: the unique index decides; the loser gets the same answer.
    if (isUniqueViolation(error)) throw unusableKey();
    throw error;
  }
}

export async function setPosKeyStatus(db: Db, actor: AuthUser, id: string, status: PosKeyStatus) {
  return inTransaction(db, async (trx) => {
    const before = await findPosKey(trx, id, true);
    if (!before) throw new AppError('POS_KEY_NOT_FOUND');
    if (before.status === status) return before;
    const after = await updatePosKeyStatus(trx, id, status);
    await insertAudit(trx, {
      username: actor.username,
      message: `${status === 'active' ? 'Activated' : 'Deactivated'} POS key '${after.name}'`,
      targetType: 'pos_key',
      // The stored id too, or a change by the id in capitals is missing from the key's audit trail.
      targetId: after.id,
      source: before,
      dest: after,
    });
    return after;
  });
}

/** The HEAD of a reveal: 404 for an unknown key, and nothing decrypted or logged (HEAD is safe, RFC 9110). */
export async function posKeyMustExist(db: Db, id: string): Promise<void> {
  if (!(await findPosKey(db, id))) throw new AppError('POS_KEY_NOT_FOUND');
}

/** The key in clear, for ADMINs only; every reveal is in the audit log (without the key). */
export async function revealPosKey(db: Db, crypto: KeyCrypto, actor: AuthUser, id: string) {
  return inTransaction(db, async (trx) => {
    const row = await findPosKeyCipher(trx, id);
    if (!row) throw new AppError('POS_KEY_NOT_FOUND');
    const key = crypto.decrypt(row.key_cipher, row.id);
    await insertAudit(trx, {
      username: actor.username,
      message: `Revealed the API key of POS key '${row.name}'`,
      targetType: 'pos_key',
      targetId: row.id,
      source: null,
      dest: toPosKey(row),
    });
    return { key };
  });
}
