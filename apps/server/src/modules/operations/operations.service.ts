import type { Operation, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { toPage } from '../../lib/paging';
import { findOperationById, listOperations, type OperationFilter } from './operations.repository';

export async function listOperationsPage(db: Db, filter: OperationFilter): Promise<Paged<Operation>> {
  const { rows, total } = await listOperations(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

export async function getOperation(db: Db, id: string): Promise<Operation> {
  const operation = await findOperationById(db, id);
  if (!operation) throw new AppError('OPERATION_NOT_FOUND');
  return operation;
}
