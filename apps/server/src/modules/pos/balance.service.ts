import type { PosCardBalance } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { centsNumber, parseCents } from '../../lib/money';
import { toIso } from '../../lib/paging';
import { availableCents } from '../ledger/available';
import { findCardBalance } from './pos.repository';

/** GET /pos/api/v1/cards/{cardNumber}: any card status may be read; writes refuse blocked cards. */
export async function cardBalance(db: Db, cardNumber: string): Promise<PosCardBalance> {
  const row = await findCardBalance(db, cardNumber.trim());
  if (!row) throw new AppError('CARD_NOT_FOUND');
  const balance = parseCents(row.balance);
  const held = parseCents(row.held_balance);
  const pending = parseCents(row.pending);
  return {
    cardNumber: row.number,
    status: row.status,
    balance: centsNumber(balance),
    heldBalance: centsNumber(held),
    pendingBalance: centsNumber(pending),
    availableBalance: centsNumber(availableCents({ balance, held, pending })),
    nextExpiry:
      row.next_expires_at && row.next_expiring
        ? {
            points: centsNumber(parseCents(row.next_expiring)),
            expiresAt: toIso(row.next_expires_at) as string,
          }
        : null,
  };
}
