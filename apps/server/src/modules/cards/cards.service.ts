import {
  type BulkBlockCardResult,
  type BulkBlockCardsResponse,
  type Card,
  type CardListItem,
  DEFAULT_BLOCK_REASON,
  type Paged,
} from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { lockAccount } from '../accounts/accounts.repository';
import { insertAudit } from '../audit/audit.repository';
import { appendEvent } from '../events/emit';
import { type Created, createUnderKey } from '../ledger/admin-idempotency';
import { getSetting } from '../settings/settings.repository';
import { generateCardNumber } from './card-number';
import {
  type CardFilter,
  cardsExportSource,
  countNonBlockedCards,
  findCardById,
  insertActiveCard,
  listCards,
  lockCard,
  lockCards,
  updateCard,
} from './cards.repository';

export async function listCardsPage(db: Db, filter: CardFilter): Promise<Paged<CardListItem>> {
  const { rows, total } = await listCards(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every row the filter matches, in the list's order (its CSV export). */
export async function* exportCards(db: Db, filter: CardFilter): AsyncGenerator<CardListItem> {
  yield* streamList(await cardsExportSource(db, filter), { snapshot: db });
}

/**
 * `leaving`: non-blocked cards this change blocks (a reissued active card). The account row must already
 * be locked by the caller: concurrent issues for one account then see
 * each other's cards, so at the limit exactly one of them wins.
 */
async function ensureBelowLimit(trx: Tx, accountId: string, leaving = 0): Promise<void> {
  const limit = await getSetting(trx, 'cards.limit_per_account');
  if (limit === null) return;
  if ((await countNonBlockedCards(trx, accountId)) - leaving >= limit) {
    throw new AppError('CARD_LIMIT_EXCEEDED', `Card limit exceeded for this client (at most ${limit} cards)`);
  }
}

/** A new active card with a fresh random number; a collision with an existing number draws again. */
async function insertNewCard(trx: Tx, accountId: string): Promise<Card> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const card = await insertActiveCard(trx, accountId, generateCardNumber());
    if (card) return card;
  }
  throw new Error('could not draw a free card number in 10 attempts');
}

/**
 * A new active card for the account. With an Idempotency-Key (`createUnderKey`), the same request again gets
 * the first card back instead of a second one: an answer lost on the way is safe to ask for again.
 */
export async function issueCard(
  db: Db,
  actor: AuthUser,
  accountId: string,
  idempotencyKey?: string,
): Promise<Created<Card>> {
  // The path's id in either case names one account, so it is one request.
  const keyed = {
    key: idempotencyKey,
    userId: actor.id,
    route: 'issue-card',
    request: { accountId: accountId.toLowerCase() },
  };
  return inTransaction(db, async (trx) => {
    // The account's lock before the key's claim, the transaction's first write: its card.issued event then
    // keeps its place among the account's events in the feed (events/README.md "The feed").
    if (!(await lockAccount(trx, accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
    return createUnderKey(trx, keyed, async () => {
      await ensureBelowLimit(trx, accountId);
      const card = await insertNewCard(trx, accountId);
      await insertAudit(trx, {
        username: actor.username,
        message: `Issued card ${card.number}`,
        targetType: 'card',
        targetId: card.id,
        source: null,
        dest: card,
      });
      await appendEvent(trx, 'card.issued', card);
      return card;
    });
  });
}

/** Why a locked card cannot be blocked, or null when it can: one rule for the single and the bulk block. */
function blockRefusal(card: Card | undefined): AppError | null {
  if (!card) return new AppError('CARD_NOT_FOUND');
  if (card.status === 'blocked') return new AppError('CARD_NOT_ACTIVE', 'Card is already blocked');
  if (card.status !== 'active') return new AppError('CARD_NOT_ACTIVE', 'A pending card cannot be blocked');
  return null;
}

/** Blocks a locked, active card and records it in the audit log. */
async function blockLocked(trx: Tx, actor: AuthUser, card: Card, reason: string | null): Promise<Card> {
  const blocked = await updateCard(trx, card.id, { block: { reason: reason ?? DEFAULT_BLOCK_REASON } });
  await insertAudit(trx, {
    username: actor.username,
    message: `Blocked card ${card.number}: ${blocked.blockedReason}`,
    targetType: 'card',
    targetId: card.id,
    source: card,
    dest: blocked,
  });
  await appendEvent(trx, 'card.blocked', blocked);
  return blocked;
}

export async function blockCard(db: Db, actor: AuthUser, id: string, reason: string | null): Promise<Card> {
  return inTransaction(db, async (trx) => {
    const card = await lockCard(trx, id);
    const refusal = blockRefusal(card);
    if (refusal) throw refusal;
    return blockLocked(trx, actor, card!, reason);
  });
}

/**
 * Blocks several cards with one reason in one transaction. A card that cannot be blocked (unknown, already
 * blocked, pending) is reported with the single block's code and left as it is; the others are blocked,
 * each with its own audit entry. Results follow the order of `ids`.
 */
export async function blockCards(
  db: Db,
  actor: AuthUser,
  ids: readonly string[],
  reason: string | null,
): Promise<BulkBlockCardsResponse> {
  return inTransaction(db, async (trx) => {
    const locked = new Map((await lockCards(trx, ids)).map((card) => [card.id, card]));
    const results: BulkBlockCardResult[] = [];
    for (const id of ids) {
      const card = locked.get(id.toLowerCase());
      const refusal = blockRefusal(card);
      if (refusal) {
        const error = { status: refusal.status, code: refusal.code, message: refusal.message };
        results.push({ id, outcome: 'failed', card: card ?? null, error });
      } else {
        results.push({
          id,
          outcome: 'blocked',
          card: await blockLocked(trx, actor, card!, reason),
          error: null,
        });
      }
    }
    const blocked = results.filter((r) => r.outcome === 'blocked').length;
    return { blocked, failed: results.length - blocked, results };
  });
}

/**
 * A new number for the same account. An active card is blocked with a reason naming its successor; a
 * blocked one keeps its reason. Either way it points at the new card (`replacedBy`). The new card counts
 * against the limit once the old one is blocked.
 */
export async function reissueCard(db: Db, actor: AuthUser, id: string): Promise<Card> {
  return inTransaction(db, async (trx) => {
    const found = await findCardById(trx, id);
    if (!found) throw new AppError('CARD_NOT_FOUND');
    // Account first, then card: the same order as every other path that takes both locks.
    await lockAccount(trx, found.accountId);
    const card = (await lockCard(trx, id))!;
    if (card.status === 'pending') {
      throw new AppError('CARD_NOT_REISSUABLE', 'A pending card cannot be reissued');
    }
    // A card is replaced at most once (issue 16): a second reissue would fork the card's line into two
    // active successors. Checked under the account and card locks, so of two racing reissues one wins.
    if (card.replacedBy) {
      throw new AppError('CARD_ALREADY_REISSUED', `Card ${card.number} was already reissued`);
    }
    await ensureBelowLimit(trx, card.accountId, card.status === 'active' ? 1 : 0);
    const issued = await insertNewCard(trx, card.accountId);
    const replaced = await updateCard(trx, id, {
      replacedBy: issued.id,
      ...(card.status === 'active' ? { block: { reason: `Reissued as card ${issued.number}` } } : {}),
    });
    await insertAudit(trx, {
      username: actor.username,
      message: `Reissued card ${card.number} as ${issued.number}`,
      targetType: 'card',
      // The stored id, not the path's (a UUID in any case), as every card entry: a member's erasure finds
      // the entries of their cards by it, and this one holds the reason the card was blocked with.
      targetId: card.id,
      source: card,
      dest: replaced,
    });
    await insertAudit(trx, {
      username: actor.username,
      message: `Issued card ${issued.number} (reissue of ${card.number})`,
      targetType: 'card',
      targetId: issued.id,
      source: null,
      dest: issued,
    });
    // The old card (now pointing at its successor, blocked if it was active), then the new one.
    await appendEvent(trx, 'card.reissued', replaced);
    await appendEvent(trx, 'card.issued', issued);
    return issued;
  });
}
