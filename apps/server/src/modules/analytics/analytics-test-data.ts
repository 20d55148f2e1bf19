import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection';
import type { OperationStatus, OperationType } from '../../db/schema';

/** Raw rows for the analytics tests, written straight to the tables (the triggers do the rest). */
export async function insertAccount(db: Db, balance = 0, held = 0): Promise<string> {
  const row = await db
    .insertInto('accounts')
    .values({ client_id: `client-${randomUUID()}`, balance, held_balance: held })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let cardSeq = 0;

export async function insertCard(
  db: Db,
  accountId: string,
  createdAt: string,
  issuedAt: string | null = null,
): Promise<string> {
  cardSeq += 1;
  const row = await db
    .insertInto('cards')
    .values({
      number: String(cardSeq).padStart(16, '0'),
      account_id: accountId,
      status: 'active',
      created_at: createdAt,
      issued_at: issuedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface OperationInput {
  accountId: string | null;
  createdAt: string;
  points: number;
  status?: OperationStatus;
  type?: OperationType;
}

export async function insertOperation(db: Db, input: OperationInput): Promise<string> {
  const row = await db
    .insertInto('operations')
    .values({
      type: input.type ?? 'accrual',
      status: input.status ?? 'completed',
      points: input.points,
      account_id: input.accountId,
      created_at: input.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
