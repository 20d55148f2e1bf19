import type { SettingKey, Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { getSettings, lockSettings, putSetting } from './settings.repository';

export function readSettings(db: Db): Promise<Settings> {
  return getSettings(db);
}

/** Changes only the values sent (null clears one); audits the whole settings before and after. */
export async function updateSettings(
  db: Db,
  actor: AuthUser,
  input: UpdateSettingsRequest,
): Promise<Settings> {
  const changes: Array<[SettingKey, number | null]> = [];
  if (input.holds?.ttl_minutes !== undefined) changes.push(['holds.ttl_minutes', input.holds.ttl_minutes]);
  if (input.cards?.limit_per_account !== undefined) {
    changes.push(['cards.limit_per_account', input.cards.limit_per_account]);
  }
  if (changes.length === 0) return getSettings(db);

  return inTransaction(db, async (trx) => {
    await lockSettings(trx);
    const before = await getSettings(trx);
    for (const [key, value] of changes) await putSetting(trx, key, value);
    const after = await getSettings(trx);
    await insertAudit(trx, {
      username: actor.username,
      message: `Updated settings: ${changes.map(([key, value]) => `${key} = ${value ?? 'not set'}`).join(', ')}`,
      targetType: 'settings',
      targetId: null,
      source: before,
      dest: after,
    });
    return after;
  });
}
