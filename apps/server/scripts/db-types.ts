/**
 * `npm run db:types`: regenerates `src/db/schema.gen.ts` (the Kysely table types) from a freshly migrated
 * database, so the compiler sees the schema the migrations really make. `npm run db:types -- --verify`
 * fails when the checked-in file is stale.
 *
 * PGlite cannot serve kysely-codegen (it wants a server), so this uses a PostgreSQL server:
 * DB_TYPES_URL (default postgres://postgres@127.0.0.1:5432/postgres) names one it may create a scratch
 * database on; the database is dropped afterwards.
 *
 * Columns a CHECK constraint limits to a list (`status in ('active', 'blocked')`) become that union of
 * literals; `kysely-codegen.json` types what no constraint says (JSON columns, the counters' copies of
 * those lists, int8 as number as `connection.ts` parses it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';

const root = fileURLToPath(new URL('..', import.meta.url));
const configFile = `${root}kysely-codegen.json`;
const outFile = `${root}src/db/schema.gen.ts`;
const base = new URL(process.env.DB_TYPES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const name = `loyalty_db_types_${process.pid}`;
const url = new URL(base);
url.pathname = `/${name}`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** `table.column` → union of the literals its CHECK (column in (…)) allows. */
async function checkedUnions(): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; column: string; definition: string }>(`
      select c.relname as table, a.attname as column, pg_get_constraintdef(k.oid) as definition
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.conkey[1]
      where k.contype = 'c' and cardinality(k.conkey) = 1`);
    const unions: Record<string, string> = {};
    for (const row of rows) {
      // PostgreSQL prints `col in ('a', 'b')` as `(col = ANY (ARRAY['a'::text, 'b'::text]))`.
      const list = /= ANY \(+ARRAY\[(.*)\]\)/.exec(row.definition)?.[1];
      if (!list) continue;
      const values = [...list.matchAll(/'((?:[^']|'')*)'::/g)].map((m) => m[1]!.replaceAll("''", "'"));
      unions[`${row.table}.${row.column}`] = values
        .sort()
        .map((v) => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`)
        .join(' | ');
    }
    return unions;
  } finally {
    await client.end();
  }
}

await admin(`drop database if exists ${name}`);
await admin(`create database ${name}`);
try {
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { overrides: { columns: object } };
  const overrides = { columns: { ...(await checkedUnions()), ...config.overrides.columns } };
  runCodegen(overrides);
} finally {
  await admin(`drop database if exists ${name} with (force)`);
}

function runCodegen(overrides: object): void {
  try {
    execFileSync(
      'kysely-codegen',
      [
        '--config-file',
        configFile,
        '--url',
        url.toString(),
        '--out-file',
        outFile,
        '--overrides',
        JSON.stringify(overrides),
        '--log-level',
        'warn',
        ...process.argv.slice(2),
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, PATH: `${root}../../node_modules/.bin:${process.env.PATH}` },
      },
    );
  } catch (error) {
    // kysely-codegen has printed why (with --verify: the diff); its exit status is ours.
    process.exitCode = (error as { status?: number }).status ?? 1;
  }
}
