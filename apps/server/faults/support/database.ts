import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pollUntil } from './poll';

/** The PostgreSQL server the fault tests create their databases on (CI passes DATABASE_URL). */
export const serverUrl =
  process.env.FAULTS_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, name: string) {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

export async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A new empty database (not migrated: the servers under test do that); dropped by `drop()`. */
export async function freshDatabase(onServer = serverUrl) {
  const name = `loyalty_fault_${randomUUID().replaceAll('-', '')}`;
  await query(onServer, `create database ${name}`);
  return {
    name,
    url: withDatabase(onServer, name),
    drop: () => query(onServer, `drop database if exists ${name} with (force)`),
  };
}

/** Terminates every other session on `database` (what an operator or a failover does to a server). */
export async function terminateBackends(url: string, database: string): Promise<number> {
  const rows = await query<{ pid: number }>(
    url,
    // The subquery (kept apart by OFFSET 0) picks the pids first, so this session never terminates itself.
    `select pid from (
       select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() offset 0
     ) others where pg_terminate_backend(pid)`,
    [database],
  );
  return rows.length;
}

// ---- a private PostgreSQL instance, so a test can stop and start "the database" without touching the
// machine's shared server.

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const override = process.env.PG_BIN;
  if (override) return override;
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL binaries not found (set PG_BIN to the folder with initdb, pg_ctl)');
  return found;
}

const isRoot = process.getuid?.() === 0;

/** initdb and pg_ctl refuse to run as root; then they run as the `postgres` system user. */
function runPg(bin: string, args: string[]) {
  const [command, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  }
}

export interface PrivatePostgres {
  url: string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): Promise<void>;
  destroy(): void;
  log(): string;
}

/** initdb into a temp folder and start it on 127.0.0.1:`port` (one of this tier's ports, 5440–5459). */
export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'loyalty-pg-'));
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  else chownSync(dir, process.getuid!(), process.getgid!());
  const data = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  runPg(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  let running = false;
  const instance: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop(mode = 'fast') {
      if (!running) return;
      runPg(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    async start() {
      // -w: pg_ctl itself waits until the server accepts connections.
      runPg(join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
      running = true;
      await pollUntil(
        async () => {
          try {
            await query(instance.url, 'select 1');
            return true;
          } catch {
            return false;
          }
        },
        { what: `private PostgreSQL on ${port}`, detail: instance.log },
      );
    },
    destroy() {
      try {
        instance.stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
  await instance.start();
  return instance;
}
