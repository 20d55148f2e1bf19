import type { ExcludedSku, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import {
  deleteExcludedSku,
  type ExcludedSkuFilter,
  excludedSkusExportSource,
  insertExcludedSku,
  listExcludedSkus,
  listSkuCategories,
} from './excluded-skus.repository';
import { findRulesetById } from './rulesets.repository';
import { getRuleset } from './rulesets.service';

export async function listExcludedSkusPage(
  db: Db,
  rulesetId: string,
  filter: ExcludedSkuFilter,
): Promise<Paged<ExcludedSku>> {
  await getRuleset(db, rulesetId);
  const { rows, total } = await listExcludedSkus(db, rulesetId, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every SKU the filter matches, in the list's order (its CSV export); 404 before anything is sent. */
export async function exportExcludedSkus(
  db: Db,
  rulesetId: string,
  filter: ExcludedSkuFilter,
): Promise<AsyncIterable<ExcludedSku>> {
  await getRuleset(db, rulesetId);
  return streamList(excludedSkusExportSource(db, rulesetId, filter), { snapshot: db });
}

export async function listCategories(db: Db, rulesetId: string): Promise<string[]> {
  await getRuleset(db, rulesetId);
  return listSkuCategories(db, rulesetId);
}

export async function excludeSku(
  db: Db,
  actor: AuthUser,
  rulesetId: string,
  input: { sku: string; description: string | null; category: string | null },
): Promise<ExcludedSku> {
  return inTransaction(db, async (trx) => {
    const ruleset = await findRulesetById(trx, rulesetId);
    if (!ruleset) throw new AppError('RULESET_NOT_FOUND');
    const added = await insertExcludedSku(trx, rulesetId, input);
    if (!added) {
      throw new AppError(
        'SKU_ALREADY_EXCLUDED',
        `SKU '${input.sku}' is already excluded in ruleset version ${ruleset.version}`,
      );
    }
    await insertAudit(trx, {
      username: actor.username,
      message: `Excluded SKU '${added.sku}' from ruleset version ${ruleset.version}`,
      targetType: 'ruleset',
      targetId: rulesetId,
      source: null,
      dest: { rulesetVersion: ruleset.version, ...added },
    });
    return added;
  });
}

export async function includeSku(db: Db, actor: AuthUser, rulesetId: string, sku: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const ruleset = await findRulesetById(trx, rulesetId);
    if (!ruleset) throw new AppError('RULESET_NOT_FOUND');
    const removed = await deleteExcludedSku(trx, rulesetId, sku);
    if (!removed) {
      throw new AppError(
        'SKU_NOT_EXCLUDED',
        `SKU '${sku}' is not excluded in ruleset version ${ruleset.version}`,
      );
    }
    await insertAudit(trx, {
      username: actor.username,
      message: `Removed SKU '${sku}' from the exclusions of ruleset version ${ruleset.version}`,
      targetType: 'ruleset',
      targetId: rulesetId,
      source: { rulesetVersion: ruleset.version, ...removed },
      dest: null,
    });
  });
}
