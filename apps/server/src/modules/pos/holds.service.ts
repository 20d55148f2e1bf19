import { randomUUID } from 'node:crypto';
import type { CaptureResponse, HoldResponse, ReleaseResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { cardKey, posTransaction } from '../../db/group-commit';
import { centsNumber, centsText, toCents } from '../../lib/money';
import { captureBatches } from '../ledger/capture-batch';
import { holdBatches } from '../ledger/hold-batch';
import type { HoldTarget } from '../ledger/holds.repository';
import { postRelease } from '../ledger/pos-holds';
import type { LockedHold } from '../ledger/settlements.repository';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { answerWrite, type FailureDetails } from './failures';
import {
  type PosOutcome,
  type StoredRequest,
  successStatus,
  type WriteContext,
  writeContext,
} from './idempotency';

/**
 * The POS hold writes: the ledger locks, decides and writes (`ledger/pos-holds.ts`); this service keeps
 * the envelope (replays, recorded refusals) and serialises each answer from its contract type.
 */

const keyOf = (ctx: WriteContext) => ({
  operationId: ctx.operationId,
  posId: ctx.posId,
  hash: ctx.hash,
  status: successStatus[ctx.kind],
});

/**
 * The card of each hold made on this server, so that its capture or release is group-committed with that
 * card's other writes (`db/group-commit.ts`; a capture names only the hold). A hold made on another server,
 * or forgotten, is keyed by its own id: its settlement then runs in a transaction of its own, as correct,
 * only not coalesced.
 */
const holdCards = new Map<string, string>();
const HOLD_CARDS_MAX = 10_000;

function rememberHoldCard(holdId: string, cardNumber: string) {
  holdCards.set(holdId, cardNumber);
  if (holdCards.size > HOLD_CARDS_MAX) holdCards.delete(holdCards.keys().next().value!);
}

function settleKey(holdId: string): string {
  const card = holdCards.get(holdId);
  return card === undefined ? `hold:${holdId}` : cardKey(card);
}

/** POST /pos/api/v1/holds. */
export async function createHold(
  db: Db,
  pos: PosIdentity,
  input: { operationId: string; cardNumber: string; points: number },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('hold', pos.id, '', input, requestId);
  const points = toCents(input.points);
  const holdId = randomUUID();
  rememberHoldCard(holdId, input.cardNumber);
  let target: HoldTarget | undefined;
  return answerWrite(
    db,
    ctx,
    () =>
      holdBatches.transaction(db, {
        key: keyOf(ctx),
        holdId,
        cardNumber: input.cardNumber,
        points,
        answer: ({ expiresAt, availableAfter }): HoldResponse => ({
          holdId,
          operationId: input.operationId,
          points: centsNumber(points),
          status: 'active',
          expiresAt: expiresAt.toISOString(),
          availableBalance: centsNumber(availableAfter),
        }),
        onTarget: (read) => {
          target = read;
        },
      }),
    () => {
      const read = target as HoldTarget | undefined;
      return {
        points: centsText(-points),
        accountId: read?.account_id,
        cardId: read?.card_id,
        cardNumber: input.cardNumber,
      };
    },
  );
}

/**
 * A capture or release in its transaction and envelope. Its refusal is recorded so that another POS learns
 * nothing about the hold and its failure is not linked to it, and a hold found expired is voided first
 * (it is due whatever this request gets).
 */
function settle(
  db: Db,
  ctx: WriteContext,
  holdId: string,
  /** Recorded on a refused capture (a full one names none: 0); null for a release. */
  points: bigint | null,
  /** The write in its transaction, telling `onHold` what it locked. */
  write: (onHold: (hold: LockedHold | undefined) => void) => Promise<StoredRequest>,
): Promise<PosOutcome> {
  let hold: LockedHold | undefined;
  const onHold = (locked: LockedHold | undefined) => {
    hold = locked;
  };
  return answerWrite(
    db,
    ctx,
    () => write(onHold),
    (error): FailureDetails => {
      const found = hold as LockedHold | undefined;
      const ours = found !== undefined && found.pos_id === ctx.posId;
      return {
        points: points === null ? '0' : centsText(-points),
        accountId: ours ? found.account_id : null,
        cardId: ours ? found.card_id : null,
        cardNumber: ours ? found.card_number : null,
        relatedId: ours ? found.hold_id : null,
        meta: { holdId },
        voidExpiredHoldId: error.code === 'HOLD_EXPIRED' ? (found?.hold_id ?? null) : null,
      };
    },
  );
}

/** POST /pos/api/v1/holds/{holdId}/capture: all or part of the hold; the rest is released. */
export async function captureHoldRequest(
  db: Db,
  pos: PosIdentity,
  holdId: string,
  input: { operationId: string; points?: number },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('capture', pos.id, holdId, input, requestId);
  const points = input.points === undefined ? null : toCents(input.points);
  // Batched set-based with other cards' captures (`capture-batch.ts`); alone, group-committed with its card's.
  return settle(db, ctx, holdId, points ?? 0n, (onHold) =>
    captureBatches.transaction(db, {
      key: keyOf(ctx),
      holdId,
      settlement: { kind: 'capture', points },
      answer: ({ holdId: id, captured, balanceAfter }): CaptureResponse => ({
        holdId: id,
        status: 'captured',
        points: centsNumber(captured),
        balance: centsNumber(balanceAfter),
      }),
      onHold,
      commitKey: settleKey(holdId),
    }),
  );
}

/** POST /pos/api/v1/holds/{holdId}/release. */
export async function releaseHoldRequest(
  db: Db,
  pos: PosIdentity,
  holdId: string,
  input: { operationId: string },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('release', pos.id, holdId, input, requestId);
  return settle(db, ctx, holdId, null, (onHold) =>
    posTransaction(db, settleKey(holdId), (trx) =>
      postRelease(trx, {
        key: keyOf(ctx),
        holdId,
        settlement: { kind: 'release' },
        answer: ({ holdId: id, availableAfter }): ReleaseResponse => ({
          holdId: id,
          status: 'released',
          availableBalance: centsNumber(availableAfter),
        }),
        onHold,
      }),
    ),
  );
}
