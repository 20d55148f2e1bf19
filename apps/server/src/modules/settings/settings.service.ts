import type { SettingKey, Settings, TextSettingKey, UpdateSettingsRequest } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import {
  getSettings,
  lockSettings,
  putSetting,
  putTextSetting,
  timeZoneKnownToDatabase,
} from './settings.repository';

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
  if (input.points?.expiry_days !== undefined) changes.push(['points.expiry_days', input.points.expiry_days]);
  if (input.points?.pending_days !== undefined) {
    changes.push(['points.pending_days', input.points.pending_days]);
  }
  const textChanges: Array<[TextSettingKey, string]> = [];
  if (input.programme?.currency !== undefined)
    textChanges.push(['programme.currency', input.programme.currency]);
  if (input.programme?.timezone !== undefined) {
    // The contract checked the name against Intl; the accrual's day boundary is PostgreSQL's, so it must know it too.
    if (!(await timeZoneKnownToDatabase(db, input.programme.timezone))) {
      const message = 'Time zone must be an IANA name such as Europe/Berlin';
      throw new AppError('VALIDATION_ERROR', `programme.timezone: ${message}`, [
        { field: 'programme.timezone', message },
      ]);
    }
    textChanges.push(['programme.timezone', input.programme.timezone]);
  }
  if (changes.length === 0 && textChanges.length === 0) return getSettings(db);

  return inTransaction(db, async (trx) => {
    await lockSettings(trx);
    const before = await getSettings(trx);
    for (const [key, value] of changes) await putSetting(trx, key, value);
    for (const [key, value] of textChanges) await putTextSetting(trx, key, value);
    const after = await getSettings(trx);
    const described = [...changes, ...textChanges].map(([key, value]) => `${key} = ${value ?? 'not set'}`);
    await insertAudit(trx, {
      username: actor.username,
      message: `Updated settings: ${described.join(', ')}`,
      targetType: 'settings',
      targetId: null,
      source: before,
      dest: after,
    });
    return after;
  });
}
