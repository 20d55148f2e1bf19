import type { Cards, DB, Operations } from './schema.gen';

/**
 * The database as Kysely sees it: generated from the migrated schema by `npm run db:types` (schema.gen.ts,
 * checked in; never edit it by hand). Numeric columns are strings (exact decimals, see lib/money.ts), int8
 * is a number (connection.ts parses it so), timestamps are Date on read. The unions below are the
 * schema's CHECK constraints, read back from the same file.
 */
export type Database = DB;

export type CardStatus = Cards['status'];
export type OperationType = Operations['type'];
export type OperationStatus = Operations['status'];
