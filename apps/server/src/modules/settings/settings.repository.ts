import {
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
  type SettingKey,
  type Settings,
  type TextSettingKey,
} from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';

/** One setting's value, or null when it was never set or was cleared. */
export async function getSetting(db: Executor, key: SettingKey): Promise<number | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function getSettings(db: Executor): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['key', 'value', 'text_value']).execute();
  const value = (key: SettingKey) => rows.find((r) => r.key === key)?.value ?? null;
  const text = (key: TextSettingKey) => rows.find((r) => r.key === key)?.text_value ?? null;
  return {
    holds: { ttl_minutes: value('holds.ttl_minutes') },
    cards: { limit_per_account: value('cards.limit_per_account') },
    points: { expiry_days: value('points.expiry_days'), pending_days: value('points.pending_days') },
    programme: {
      currency: text('programme.currency') ?? DEFAULT_CURRENCY,
      timezone: text('programme.timezone') ?? DEFAULT_TIME_ZONE,
    },
  };
}

/**
 * One save at a time, so two concurrent saves audit a before/after that really follow each other and each
 * answers what the other saved. The table, not its rows: a key never saved has no row to lock, and two first
 * saves (of one key or two) each audited the other's key as unset. Share row exclusive conflicts with itself
 * and with writes, not with reads, so tills reading a setting never wait for a save.
 */
export async function lockSettings(trx: Tx): Promise<void> {
  await sql`lock table settings in share row exclusive mode`.execute(trx);
}

export async function putSetting(trx: Tx, key: SettingKey, value: number | null): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ key, value, updated_at: sql`now()` })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: sql`now()` }))
    .execute();
}

export async function putTextSetting(trx: Tx, key: TextSettingKey, textValue: string): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ key, value: null, text_value: textValue, updated_at: sql`now()` })
    .onConflict((oc) => oc.column('key').doUpdateSet({ text_value: textValue, updated_at: sql`now()` }))
    .execute();
}

/** Whether PostgreSQL can compute in the zone (its zone data and Node's may differ on rare names). */
export async function timeZoneKnownToDatabase(db: Executor, zone: string): Promise<boolean> {
  const result = await sql<{ known: boolean }>`
    select exists (select 1 from pg_timezone_names where name = ${zone}) as known`.execute(db);
  return result.rows[0]?.known ?? false;
}
