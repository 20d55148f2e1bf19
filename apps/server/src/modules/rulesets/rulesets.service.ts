import type { Paged, Ruleset, RulesetAdvanced } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction, type Tx, withRetry } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { type Created, createUnderKey } from '../ledger/admin-idempotency';
import {
  findRulesetById,
  insertRuleset,
  listRulesets,
  lockRuleset,
  markRulesetRetired,
  type RulesetFilter,
  rulesetsExportSource,
  rulesetVersionExists,
  unknownPosIds,
} from './rulesets.repository';

export async function listRulesetsPage(db: Db, filter: RulesetFilter): Promise<Paged<Ruleset>> {
  const { rows, total } = await listRulesets(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every ruleset the filter matches, in the list's order (its CSV export). */
export function exportRulesets(db: Db, filter: RulesetFilter): AsyncIterable<Ruleset> {
  return streamList(rulesetsExportSource(db, filter), { snapshot: db });
}

export async function getRuleset(db: Db, id: string): Promise<Ruleset> {
  const ruleset = await findRulesetById(db, id);
  if (!ruleset) throw new AppError('RULESET_NOT_FOUND');
  return ruleset;
}

interface NewRuleset {
  version: number | null;
  config: RulesetAdvanced & { percent: number };
  activeFrom: string | null;
}

/** The config beyond percent as stored, or null when the ruleset has none of it (a rules v1 ruleset). */
function earningRulesOf({ percent: _percent, ...advanced }: NewRuleset['config']): RulesetAdvanced | null {
  const none =
    advanced.minSpend === null &&
    advanced.maxPointsPerReceipt === null &&
    advanced.maxPointsPerCardPerDay === null &&
    advanced.rules.length === 0;
  return none ? null : advanced;
}

/** A rule's stores are POS keys: an id that names none is a 400 on that rule's field. */
async function checkRuleStores(db: Db, rules: RulesetAdvanced['rules']): Promise<void> {
  const ids = [...new Set(rules.flatMap((r) => r.posIds ?? []))];
  const unknown = new Set(await unknownPosIds(db, ids));
  if (unknown.size === 0) return;
  const details = rules.flatMap((rule, index) =>
    (rule.posIds ?? []).some((id) => unknown.has(id))
      ? [{ field: `config.rules.${index}.posIds`, message: 'Unknown POS key' }]
      : [],
  );
  throw new AppError('VALIDATION_ERROR', `${details[0]!.field}: Unknown POS key`, details);
}

/**
 * An absent version is the current time in seconds (spec section 5); if another ruleset already took
 * that second, the next free second is used, so an automatic version never fails as "taken". With an
 * Idempotency-Key (`createUnderKey`), the same request again gets the first ruleset back: an automatic
 * version would otherwise make a second, identical draft.
 */
export async function createRuleset(
  db: Db,
  actor: AuthUser,
  input: NewRuleset,
  idempotencyKey?: string,
): Promise<Created<Ruleset>> {
  const auto = input.version === null;
  await checkRuleStores(db, input.config.rules);
  const earningRules = earningRulesOf(input.config);
  const keyed = { key: idempotencyKey, userId: actor.id, route: 'create-ruleset', request: input };
  const insertIn = async (trx: Tx): Promise<Ruleset> => {
    let version = input.version ?? Math.floor(Date.now() / 1000);
    while (await rulesetVersionExists(trx, version)) {
      if (!auto) throw versionTaken(version);
      version++;
    }
    const ruleset = await insertRuleset(trx, {
      version,
      percent: input.config.percent,
      earningRules,
      activeFrom: input.activeFrom,
      createdBy: actor.username,
    });
    await insertAudit(trx, {
      username: actor.username,
      message: `Created ruleset version ${version} (${ruleset.config.percent}%${rulesNote(input.config.rules.length)}, ${ruleset.status})`,
      targetType: 'ruleset',
      targetId: ruleset.id,
      source: null,
      dest: ruleset,
    });
    return ruleset;
  };
  // Two concurrent creates of one version: the unique index decides, and an automatic version is tried again
  // (the key's claim rolled back with the attempt, and is made again).
  const create = () => inTransaction(db, (trx) => createUnderKey(trx, keyed, () => insertIn(trx)));
  return withRetry(create, (error, attemptNo) => auto && isUniqueViolation(error) && attemptNo < 3).catch(
    (error: unknown) => {
      if (isUniqueViolation(error)) throw versionTaken(input.version ?? Math.floor(Date.now() / 1000));
      throw error;
    },
  );
}

const rulesNote = (count: number) => (count === 0 ? '' : count === 1 ? ', 1 rule' : `, ${count} rules`);

function versionTaken(version: number) {
  return new AppError('RULESET_VERSION_TAKEN', `A ruleset with version ${version} already exists`);
}

/**
 * Retires a ruleset for good (issue 15.3): it is never in force again, whatever its version or
 * activeFrom, and stays listed (status Retired) for history and for the receipts that name it.
 */
export async function retireRuleset(db: Db, actor: AuthUser, id: string): Promise<Ruleset> {
  return inTransaction(db, async (trx) => {
    const ruleset = await lockRuleset(trx, id);
    if (!ruleset) throw new AppError('RULESET_NOT_FOUND');
    if (ruleset.retiredAt) {
      throw new AppError('RULESET_ALREADY_RETIRED', `Ruleset version ${ruleset.version} is already retired`);
    }
    const retired = await markRulesetRetired(trx, id, actor.username);
    await insertAudit(trx, {
      username: actor.username,
      message: `Retired ruleset version ${ruleset.version}${ruleset.inForce ? ' (it was in force)' : ''}`,
      targetType: 'ruleset',
      targetId: id,
      source: ruleset,
      dest: retired,
    });
    return retired;
  });
}
