import type { ColumnType, Generated } from 'kysely';
import type { AnalyticsTables } from './schema-analytics';
import type { PosTables } from './schema-pos';

/**
 * Table types for Kysely. Keep in step with `migrations/`. Numeric columns are strings (exact decimals),
 * timestamps are Date on read and accept Date or ISO strings on write.
 */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
export type Json = ColumnType<unknown, string | null | undefined, string | null>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string;
  email: string | null;
  full_name: string | null;
  role: 'ADMIN' | 'MANAGER' | 'VIEWER';
  created_at: Timestamp;
  last_login: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  username: string | null;
  executed_at: Timestamp;
  message: string;
  target_type: string;
  target_id: string | null;
  source: Json;
  dest: Json;
}

export interface LoginAttemptsTable {
  id: Generated<string>;
  username: string;
  address: string;
  attempted_at: Timestamp;
  succeeded: boolean;
}

export interface SettingsTable {
  key: string;
  value: number | null;
  /** Text settings (programme.currency); null for numeric ones. */
  text_value: Generated<string | null>;
  updated_at: Timestamp;
}

export interface RulesetsTable {
  id: Generated<string>;
  version: ColumnType<number, number | bigint, number>;
  percent: ColumnType<string, string | number, string | number>;
  active_from: NullableTimestamp;
  created_by: string;
  created_at: Timestamp;
  /** Set once, by the retire endpoint: the ruleset is never in force again. */
  retired_at: NullableTimestamp;
  retired_by: string | null;
}

export interface ExcludedSkusTable {
  ruleset_id: string;
  sku: string;
  description: string | null;
  category: string | null;
  created_at: Timestamp;
}

export type Points = ColumnType<string, string | number | undefined, string | number>;

export interface AccountsTable {
  id: Generated<string>;
  client_id: string;
  balance: Points;
  held_balance: Points;
  created_at: Timestamp;
}

export type CardStatus = 'active' | 'blocked' | 'pending';

export interface CardsTable {
  id: Generated<string>;
  number: string;
  account_id: string;
  status: CardStatus;
  issued_at: NullableTimestamp;
  created_at: Timestamp;
  blocked_at: NullableTimestamp;
  blocked_reason: string | null;
  replaced_by: string | null;
}

export interface PosKeysTable {
  id: Generated<string>;
  name: string;
  address: string | null;
  /** HMAC-SHA256 of the key under POS_KEY_SECRET: lookup without storing the key. */
  key_hash: string;
  /** AES-256-GCM of the key under POS_KEY_SECRET: for reveal only. */
  key_cipher: string;
  status: 'active' | 'inactive';
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export type OperationType = 'accrual' | 'redemption' | 'hold' | 'adjustment';
export type OperationStatus = 'completed' | 'active' | 'pending' | 'failed' | 'applied' | 'voided';

export interface OperationsTable {
  id: Generated<string>;
  /** The POS's idempotency key (unique across all POS); null for admin operations. */
  operation_id: string | null;
  type: OperationType;
  status: OperationStatus;
  /** Signed: credits positive, debits (redemptions, holds, reversals) negative. */
  points: Points;
  account_id: string | null;
  card_id: string | null;
  card_number: string | null;
  pos_id: string | null;
  ruleset_version: ColumnType<number | null, number | bigint | null | undefined, number | null>;
  /** A redemption's hold, a return's accrual. */
  related_id: string | null;
  /** Holds only: when the hold lapses. */
  expires_at: NullableTimestamp;
  meta: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_by: string | null;
  created_at: Timestamp;
}

/** Exact row counters per filter value, sharded; readers sum the shards (migration 002). */
export interface OperationCountsTable {
  type: OperationType;
  status: OperationStatus;
  shard: number;
  n: ColumnType<number, number, number>;
}

export interface CardCountsTable {
  status: CardStatus;
  shard: number;
  n: ColumnType<number, number, number>;
}

export interface AccountCountsTable {
  shard: number;
  n: ColumnType<number, number, number>;
}

/** Operations whose card number (kind c), operation id (o) or both (b) start with `ch`. */
export interface OperationSearchCountsTable {
  ch: string;
  kind: 'c' | 'o' | 'b';
  type: OperationType;
  status: OperationStatus;
  shard: number;
  n: ColumnType<number, number, number>;
}

/** Accounts whose lower-cased client ID contains `gram` (one or two characters). */
export interface AccountSearchCountsTable {
  gram: string;
  shard: number;
  n: ColumnType<number, number, number>;
}

export interface Database extends PosTables, AnalyticsTables {
  users: UsersTable;
  audit_log: AuditLogTable;
  login_attempts: LoginAttemptsTable;
  settings: SettingsTable;
  rulesets: RulesetsTable;
  excluded_skus: ExcludedSkusTable;
  accounts: AccountsTable;
  cards: CardsTable;
  pos_keys: PosKeysTable;
  operations: OperationsTable;
  operation_counts: OperationCountsTable;
  card_counts: CardCountsTable;
  account_counts: AccountCountsTable;
  operation_search_counts: OperationSearchCountsTable;
  account_search_counts: AccountSearchCountsTable;
}
