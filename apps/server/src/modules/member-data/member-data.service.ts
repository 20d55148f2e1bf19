import {
  type Account,
  canonicalClientId,
  ERASED_ID_DIGITS,
  erasedClientId,
  isErasedClientIdOf,
  type MemberDataExport,
  type Operation,
} from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import type { AuthUser } from '../../plugins/auth';
import { findAccountById, lockAccount } from '../accounts/accounts.repository';
import { getAccount } from '../accounts/accounts.service';
import { insertAudit } from '../audit/audit.repository';
import { findCardById, findCardsOfAccount } from '../cards/cards.repository';
import { appendEvent } from '../events/emit';
import { lotsOfAccount } from '../lots/lots.repository';
import { operationsExportSource } from '../operations/operations.repository';
import { receiptsOfAccount } from '../receipts/receipts.service';
import {
  blockCardsAsErased,
  clearOperationReasons,
  clientIdTakenByOther,
  forgetCreateAnswers,
  redactAccountAudit,
  redactAccountEvents,
  redactCardAudit,
  rememberErasedClientId,
  renameAccount,
} from './member-data.repository';

/**
 * Everything held about one member as one document (PROGRAMME-API §4 "A member's data"), read in one
 * REPEATABLE READ transaction: every part from the same snapshot, so a write landing between two reads
 * cannot leave the account's balance, operations and lots telling different stories. The disclosure is
 * audited in the same transaction (as a POS key's or a webhook secret's reveal is): who, which account, and
 * how many of each part; none of the member's values.
 */
export async function exportMemberData(
  db: Db,
  actor: AuthUser,
  accountId: string,
): Promise<MemberDataExport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const account = await getAccount(trx, accountId);
      const cards = await findCardsOfAccount(trx, accountId);
      const operations: Operation[] = [];
      // The operations list's own query and mapping, so the document says what the console shows; with the
      // refused till writes that named the member's cards without being bound to the account, from the time
      // each card was issued (before, the number was no one's, and the attempts someone else's).
      const unboundOfCards = cards.map((card) => ({
        number: card.number,
        issuedAt: card.issuedAt ?? card.createdAt,
      }));
      for await (const operation of streamList(
        operationsExportSource(trx, { accountId, unboundOfCards, page: 0, size: 0 }),
      )) {
        operations.push(operation);
      }
      const receipts = await receiptsOfAccount(trx, accountId);
      const lots = await lotsOfAccount(trx, accountId);
      await insertAudit(trx, {
        username: actor.username,
        message: 'Exported the member data of the account',
        targetType: 'account',
        targetId: account.id,
        source: null,
        dest: {
          cards: cards.length,
          operations: operations.length,
          receipts: receipts.length,
          lots: lots.length,
        },
      });
      return { exportedAt: new Date().toISOString(), account, cards, operations, receipts, lots };
    });
}

/**
 * The erased client ID for the account: `erased-<first 8 of id>`, or more digits of the id when another
 * account carries that one (`ERASED_ID_DIGITS`). All 32 digits are the whole id: no erasure carries them but
 * this account's, so the unique index answers only a client ID someone chose to type that way.
 */
async function freeErasedId(trx: Tx, accountId: string): Promise<string> {
  for (const digits of ERASED_ID_DIGITS.slice(0, -1)) {
    const candidate = erasedClientId(accountId, digits);
    if (!(await clientIdTakenByOther(trx, candidate, accountId))) return candidate;
  }
  return erasedClientId(accountId, 32);
}

/**
 * Erases a member (PROGRAMME-API §4): the client ID becomes `erased-<first 8 of id>` (more digits when
 * another account carries that one: `freeErasedId`), every card is
 * blocked with reason `Erased` (a `card.blocked` event for each card that was not blocked yet), the
 * free-text reasons of the account's operations are cleared, and the audit log and the event outbox lose
 * them too, and the reasons its cards were blocked with. Points, amounts and dates stay: nothing here
 * writes a balance, so the ledger still verifies. The confirmation is the current client ID typed again;
 * the audit entry of the erasure names neither. Erasing an erased account again is safe: with its
 * current (erased) ID it runs again, with any other confirmation it answers the account unchanged.
 */
export async function eraseMember(
  db: Db,
  actor: AuthUser,
  accountId: string,
  confirm: string,
  /** `erasedClientSecret`: keys the client ID kept so that a member import cannot bring the member back. */
  keySecret: string,
): Promise<Account> {
  try {
    return await inTransaction(db, async (trx) => {
      // Locked: no card issue or balance change of the account runs meanwhile.
      const account = await lockAccount(trx, accountId);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      // The confirm arrives canonical (the contract); a stored ID that migration 044 had to leave as it was (its
      // canonical form belonged to another account) is compared in that form too, or it could never be erased.
      if (confirm !== canonicalClientId(account.client_id)) {
        // Already erased: a retry whose first answer was lost confirms with the client ID the account no
        // longer has (and that cannot be checked any more). Nothing is left to erase, so it gets the
        // erased account, as the first request did, and writes nothing.
        if (isErasedClientIdOf(account.client_id, account.id))
          return (await findAccountById(trx, account.id))!;
        throw new AppError('ERASE_NOT_CONFIRMED');
      }
      const erasedId = await freeErasedId(trx, account.id);
      const cards = await blockCardsAsErased(trx, account.id);
      const reasonsCleared = await clearOperationReasons(trx, account.id);
      await forgetCreateAnswers(trx, account.id);
      await redactAccountAudit(trx, account.id, account.client_id, erasedId);
      await redactCardAudit(trx, account.id);
      await redactAccountEvents(trx, account.id, erasedId);
      await rememberErasedClientId(trx, account.client_id, keySecret);
      await renameAccount(trx, account.id, erasedId);
      for (const id of cards.newly) await appendEvent(trx, 'card.blocked', (await findCardById(trx, id))!);
      await insertAudit(trx, {
        username: actor.username,
        message: `Erased the member data of account ${erasedId}`,
        targetType: 'account',
        targetId: account.id,
        source: null,
        dest: { clientId: erasedId, cardsBlocked: cards.all, reasonsCleared },
      });
      const erased = (await findAccountById(trx, account.id))!;
      // Always, after the cards' events: a system that copied the client ID from account.created learns that
      // the member is gone (the card events alone said nothing when every card was blocked already).
      await appendEvent(trx, 'account.erased', erased);
      return erased;
    });
  } catch (error) {
    // Another account already carries this erased ID (the same first 8 characters of its id).
    if (isUniqueViolation(error)) throw new AppError('CLIENT_ID_TAKEN');
    throw error;
  }
}
