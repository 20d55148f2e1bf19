import type { Operation, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import {
  findOperationById,
  listOperations,
  type OperationFilter,
  operationsExportSource,
} from './operations.repository';

export async function listOperationsPage(db: Db, filter: OperationFilter): Promise<Paged<Operation>> {
  const { rows, total } = await listOperations(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every operation the filter matches, in the list's order (its CSV export). */
export function exportOperations(db: Db, filter: OperationFilter): AsyncIterable<Operation> {
  return streamList(operationsExportSource(db, filter), { snapshot: db });
}

export async function getOperation(db: Db, id: string): Promise<Operation> {
  const operation = await findOperationById(db, id);
  if (!operation) throw new AppError('OPERATION_NOT_FOUND');
  return operation;
}
