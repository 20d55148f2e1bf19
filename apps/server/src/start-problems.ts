/** Start-up failures whose cause is known, told as the variable to fix (start.ts, server.ts and the scripts). */
import { existsSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type Config, ConfigError, parsePostgresUrl } from './config';
import { type DatabaseHandle, type Db, openDatabase } from './db/connection';
import { isConnectionError } from './db/connection-errors';
import { migrationState } from './db/migrate';

/**
 * How the server and the scripts end on a failure: a ConfigError (a bad variable, or a cause `explained`
 * found) is its one-line message, anything else is a bug or an unforeseen failure and keeps its stack.
 */
export function exitOnStartProblem(error: unknown, exitCode = 1): never {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(exitCode);
}

/**
 * The scripts' database (migrate, seed, verify-ledger, rebuild-derived), opened and asked once, so that an
 * unreachable or missing database and an unusable DATA_DIR fail here with the server's own words.
 * Only `create` (migrate, seed: a first use, as the server's first start) makes a new embedded database; the
 * others refuse a DATA_DIR that holds none, before anything is written: PGlite would make one in a mistyped
 * folder, and a check of that empty database (after following verify-ledger's "not migrated") said "Ledger OK".
 */
export async function openScriptDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: { create?: boolean } = {},
): Promise<DatabaseHandle> {
  if (!config.DATABASE_URL && !options.create) assertHoldsDatabase(config.DATA_DIR);
  const explain = (error: unknown) => databaseProblem(error, config);
  const database = await explained(
    () => openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }),
    explain,
  );
  await explained(
    () => sql`select 1`.execute(database.db),
    explain,
    () => database.close(),
  );
  return database;
}

/**
 * The scripts that read or recompute (verify-ledger, rebuild-derived) never migrate: run from a new checkout
 * against production they would apply its migrations under servers still running the old code. A database
 * with pending migrations is told as a ConfigError; with `unknown` too, one a newer version migrated.
 */
export async function assertMigrated(db: Db, options: { refuseUnknown?: boolean } = {}): Promise<void> {
  const { pending, unknown } = await migrationState(db);
  if (pending.length > 0)
    throw new ConfigError(
      `The database is not migrated (pending: ${pending.join(', ')}); run npm run migrate first.`,
    );
  if (options.refuseUnknown && unknown.length > 0)
    throw new ConfigError(
      `The database has migrations this version does not know (${unknown.join(', ')}): run the newer version's script.`,
    );
}

/** A DATA_DIR missing, or a folder without PostgreSQL's PG_VERSION: no database to open. */
function assertHoldsDatabase(dataDir: string): void {
  const refuse = (why: string) =>
    new ConfigError(
      `DATA_DIR: ${JSON.stringify(dataDir)} ${why}: check DATA_DIR (npm run migrate creates a new database there)`,
    );
  let folder: Stats;
  try {
    folder = statSync(dataDir);
  } catch (error) {
    if (systemError(error)?.code === 'ENOENT') throw refuse('does not exist');
    return; // Not ours to judge here: opening tells it in the server's words (dataDirProblem).
  }
  // A file in the way is told by opening, as the server tells it.
  if (folder.isDirectory() && !existsSync(join(dataDir, 'PG_VERSION')))
    throw refuse('holds no database (no PG_VERSION)');
}

/**
 * Runs one start-up step. A failure whose cause is known becomes a ConfigError naming the variable to fix
 * (printed as one line, no stack: server.ts); anything else goes up as it is. `undo` closes what the steps
 * before opened.
 */
export async function explained<T>(
  step: () => Promise<T> | T,
  explain: (error: unknown) => string | undefined,
  undo?: () => Promise<void>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await undo?.().catch(() => undefined);
    const message = explain(error);
    throw message === undefined ? error : new ConfigError(message, { cause: error });
  }
}

interface SystemError {
  code?: string;
  message: string;
  errors?: unknown[];
}

function systemError(error: unknown): SystemError | undefined {
  return error instanceof Error ? (error as SystemError) : undefined;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);
/** Why a folder cannot be made or written, by the error code the file system answers with. */
const FOLDER_PROBLEMS: Record<string, string> = {
  EEXIST: 'is not a folder (a file is in the way)',
  ENOTDIR: 'is not a folder (a file is in the way)',
  EISDIR: 'holds a folder where a file belongs',
  EACCES: 'cannot be written (no permission)',
  EPERM: 'cannot be written (no permission)',
  EROFS: 'cannot be written (a read-only file system)',
  ENOSPC: 'cannot be written (no space left on its device)',
};

/** The server a DATABASE_URL points at, as `host:port`, never with its credentials. */
export function databaseTarget(databaseUrl: string): string {
  const url = parsePostgresUrl(databaseUrl);
  if (!url) return 'the server';
  const host = url.searchParams.get('host') ?? (url.hostname === 'stand-in' ? '' : url.hostname);
  return `${host || 'localhost'}:${url.searchParams.get('port') ?? (url.port || '5432')}`;
}

/** Opening or first querying the database failed: which variable, and what the operator can do about it. */
export function databaseProblem(error: unknown, config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>) {
  const e = systemError(error);
  if (!e) return undefined;
  if (!config.DATABASE_URL) return dataDirProblem(error, config.DATA_DIR);
  const code = e.code ?? systemError(e.errors?.[0])?.code;
  const target = databaseTarget(config.DATABASE_URL);
  if (code && UNREACHABLE.has(code)) return `DATABASE_URL: cannot connect to ${target} (${code})`;
  if (code && UNRESOLVED.has(code)) return `DATABASE_URL: cannot resolve the host of ${target} (${code})`;
  // A server's refusal (an SQLSTATE that means no connection can be had: connection-errors.ts): its message
  // says what to fix.
  if (code && SQLSTATE.test(code) && isConnectionError(error)) return `DATABASE_URL: ${e.message}`;
  if (e.message.includes('timeout exceeded when trying to connect'))
    return `DATABASE_URL: ${target} did not answer in time`;
  if (/\bSSL\b/.test(e.message)) return `DATABASE_URL: ${e.message} (${target})`;
  return undefined;
}

/** The data folder could not be made or written (a file in its place, no permission, a full disk). */
export function dataDirProblem(error: unknown, dataDir: string) {
  const code = systemError(error)?.code;
  const problem = code ? FOLDER_PROBLEMS[code] : undefined;
  return problem && `DATA_DIR: ${JSON.stringify(dataDir)} ${problem} (${code})`;
}

/** Listening failed: the port is taken or not ours to open, or the host is no address of this machine. */
export function listenProblem(error: unknown, config: Pick<Config, 'HOST' | 'PORT'>) {
  const code = systemError(error)?.code;
  const { HOST: host, PORT: port } = config;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT: ${port} is already in use on ${host}`;
    case 'EACCES':
    case 'EPERM':
      return `PORT: not allowed to listen on ${port} on ${host} (${code}; ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `HOST: ${JSON.stringify(host)} is not an address of this machine (${code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `HOST: cannot resolve ${JSON.stringify(host)} (${code})`;
    case 'EAFNOSUPPORT':
      return `HOST: ${JSON.stringify(host)} is of an address family this machine does not support (${code})`;
    default:
      return undefined;
  }
}
