import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ensurePrivateDir } from '../lib/private-dir';
import { markAcquireFailure } from './connection-errors';
import { lockDataDir } from './data-dir-lock';
import { discardingLostConnections } from './pg-pool';
import { PGliteDialect } from './pglite-dialect';
import { statementNamer } from './prepared-statements';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent, embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; when absent, PGlite runs in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** PGlite only: start from this dumped data folder (`dumpDataDir`), e.g. a migrated test template. */
  loadDataDir?: Blob;
  /** PostgreSQL server only: statements run repeatedly go as named prepared statements (default true). */
  prepareStatements?: boolean;
  /**
   * PostgreSQL server only: a session idle inside a transaction this long is ended by the server, its locks
   * released (default IDLE_IN_TRANSACTION_TIMEOUT_MS; 0 leaves the server's own setting).
   */
  idleInTransactionTimeoutMs?: number;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Connection pool counts (PostgreSQL server only; PGlite is one in-process connection). */
  poolStats?(): PoolStats;
  /**
   * Where the pool's connection-lost warnings go: the app hands its logger here, so they are JSON log lines
   * at warn like the rest (before that, and without one, they are process warnings on stderr).
   */
  setWarningLog?(warn: ConnectionWarningLog): void;
}

/** A warning about the pool's connections (`log.warn(details, message)` of the app's pino logger). */
export type ConnectionWarningLog = (details: { code?: string }, message: string) => void;

/**
 * How long a request waits for a connection (queueing for a free one included) before it answers 503 rather
 * than hanging on an unreachable database. Generous: a loaded machine must not turn slowness into 503s; a
 * database that refuses connections fails at once anyway.
 */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * No transaction of this server that takes a row lock waits on anything outside the process (imports spool
 * outside their transaction; a CSV export's read-only snapshot waits for its client between batches, takes no
 * row lock, and is given back by the export itself when its client stops taking rows: `SNAPSHOT_STALL_MS`),
 * so one that sits idle this long belongs to a server that hung or was cut off from the database. Without a limit PostgreSQL keeps its row locks until TCP gives up on the connection
 * (hours), and every till on those accounts waits on every other server; with it, the session ends and its
 * transaction rolls back, which loses nothing that was answered (the answer comes after COMMIT).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

// Both drivers return the same JavaScript shapes: bigint counts as numbers (they stay far below 2^53),
// numeric as strings (exact decimals; converted at the edge), timestamps as Date.
const INT8 = 20;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => v);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // pg sends it in the start-up packet (no statement per connection); 0 leaves the server's own setting.
      idle_in_transaction_session_timeout:
        options.idleInTransactionTimeoutMs ?? IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // No JIT: the app's statements are short, and a planner estimate over jit_above_cost (a table not yet
      // analyzed: webhook_endpoints guessed at 310 rows) made the endpoints list compile 32 functions for
      // 13 ms (160–300 ms in the review, machine loaded) to run in 2 ms, while reads of millions of rows gained
      // nothing from it (EXPLAIN ANALYZE on bench/webhook-deliveries.ts's database, bench:dashboard, jit on and
      // off). Imports and backtests had already turned it off for their transactions. An `options` in
      // DATABASE_URL overrides this one (pg merges the URL over this config).
      options: '-c jit=off',
    });
    // A client can lose its connection (database restart, pg_terminate_backend). pg reports that as an
    // 'error' event, and an 'error' event nobody listens to kills the process. The pool listens only while
    // a client is idle in it; a client checked out between two statements of a transaction had no
    // listener, which took whole servers down. So every client gets its own listener for its lifetime:
    // the statement it runs next fails (the request answers 503), and on release the pool sees the client
    // is no longer queryable and drops it, opening a fresh connection on the next demand.
    let warn: ConnectionWarningLog = (_details, message) => process.emitWarning(message);
    // An idle client's lost connection is reported twice (its own 'error' and the pool's, with the same
    // error): logged once. Only the code and message: pg attaches the client (its connection settings) to it.
    const reported = new WeakSet<Error>();
    const lost = (error: Error, message: string) => {
      if (reported.has(error)) return;
      reported.add(error);
      const code = (error as { code?: unknown }).code;
      warn(typeof code === 'string' ? { code } : {}, `${message}: ${error.message}`);
    };
    pool.on('connect', (client) => {
      client.on('error', (error) => lost(error, 'PostgreSQL connection lost'));
    });
    pool.on('error', (error) => lost(error, 'PostgreSQL idle client error'));
    // A connection that cannot be had (refused by the server for whatever reason, the handshake cut, no free
    // one in time) is an outage to the request, whatever the error's code: marked so (connection-errors.ts).
    // Kysely only calls connect and end.
    const acquiring = Object.create(pool, {
      connect: {
        value: () => pool.connect().catch((error: unknown) => Promise.reject(markAcquireFailure(error))),
      },
      end: { value: () => pool.end() },
    }) as pg.Pool;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: discardingLostConnections(
          acquiring,
          options.prepareStatements === false ? undefined : statementNamer(),
        ),
      }),
    });
    return {
      db,
      kind: 'postgres',
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      setWarningLog: (log) => {
        warn = log;
      },
    };
  }
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  let pglite: PGlite;
  try {
    pglite = await createPGlite(options);
  } catch (error) {
    release();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      try {
        await db.destroy();
      } finally {
        release();
      }
    },
  };
}

/** The embedded engine with the extensions and type parsers the app relies on (shared with the test template). */
export function createPGlite(options: Pick<DatabaseOptions, 'dataDir' | 'loadDataDir'>): Promise<PGlite> {
  return PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => v },
  });
}
