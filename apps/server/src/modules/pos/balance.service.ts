import type { PosCardBalance } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { centsNumber, parseCents } from '../../lib/money';
import { findCardBalance } from './pos.repository';

/** GET /pos/api/v1/cards/{cardNumber}: any card status may be read; writes refuse blocked cards. */
export async function cardBalance(db: Db, cardNumber: string): Promise<PosCardBalance> {
  const row = await findCardBalance(db, cardNumber.trim());
  if (!row) throw new AppError('CARD_NOT_FOUND');
  const balance = parseCents(row.balance);
  const held = parseCents(row.held_balance);
  return {
    cardNumber: row.number,
    status: row.status,
    balance: centsNumber(balance),
    heldBalance: centsNumber(held),
    pendingBalance: 0,
    availableBalance: centsNumber(balance - held),
    nextExpiry: null,
  };
}
