import type { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { createPGlite, type DatabaseHandle } from '../src/db/connection';
import { PGliteDialect } from '../src/db/pglite-dialect';
import type { Database } from '../src/db/schema';

/**
 * One PGlite per vitest worker, reused by the test files that worker runs one after another (the API tier runs
 * with `isolate: false`, so this module — and the engine in it — outlive a file). Booting PGlite with pg_trgm
 * costs 2–3 s of CPU per file on this machine (more under load); putting a used one back to the template's
 * state costs ~0.1 s: every table emptied and refilled with the template's rows, every sequence set back.
 *
 * Only what a reset restores may change between files. A file whose tests change the schema (DDL, a trigger
 * disabled, a function replaced) would hand the next file a different database, so every checkout compares a
 * fingerprint of the catalogue with the template's and, if it differs, throws the engine away and loads a
 * fresh one from the template: such a file is merely slower, never wrong.
 */

interface TableRows {
  table: string;
  columns: string[];
  rows: unknown[];
}

interface Pooled {
  pglite: PGlite;
  tables: string[];
  contents: TableRows[];
  sequences: { name: string; lastValue: number | null }[];
  fingerprint: string;
  inUse: boolean;
}

let pooled: Pooled | undefined;
let template: Blob | undefined;

/** How many times this worker booted an engine and how many files reused one (reported by the tests of this). */
export const poolStats = { boots: 0, reuses: 0, discarded: 0, abandoned: 0 };

/**
 * Before each file (test/per-file-setup.ts): an engine still checked out now was never closed by the file
 * before. It is left to that file's handle (its app may still run timers against it) and the next checkout
 * boots a new engine for the pool, so one leaky file costs a boot instead of every later file of the worker.
 */
export function abandonLeakedEngine(): void {
  if (!pooled?.inUse) return;
  poolStats.abandoned++;
  pooled = undefined;
}

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;

/** Everything a test could change in the schema, hashed: relations, columns, constraints, triggers, functions. */
const FINGERPRINT = `
  select md5(coalesce(string_agg(item, E'\\n' order by item), '')) as fingerprint from (
    select 'n ' || n.nspname as item from pg_namespace n where ${USER_SCHEMAS}
    union all
    select 'r ' || c.oid::regclass::text || ' ' || c.relkind::text || ' ' || c.relpersistence::text
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMAS}
    union all
    select 'a ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
        || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where ${USER_SCHEMAS} and a.attnum > 0 and not a.attisdropped
    union all
    select 'k ' || co.conrelid::regclass::text || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
      from pg_constraint co join pg_namespace n on n.oid = co.connamespace where ${USER_SCHEMAS}
    union all
    select 'i ' || pg_get_indexdef(i.indexrelid)
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where ${USER_SCHEMAS}
    union all
    select 't ' || pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text from pg_trigger t where not t.tgisinternal
    union all
    select 'p ' || p.oid::regprocedure::text || ' ' || md5(pg_get_functiondef(p.oid))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_SCHEMAS} and p.prokind in ('f', 'p')
    union all
    select 'x ' || extname || ' ' || extversion from pg_extension
  ) s`;

async function fingerprintOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ fingerprint: string }>(FINGERPRINT);
  return rows[0]?.fingerprint ?? '';
}

async function capture(pglite: PGlite): Promise<Pooled> {
  const tables = (
    await pglite.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and ${USER_SCHEMAS} order by 1`,
    )
  ).rows.map((r) => r.name);
  const contents: TableRows[] = [];
  for (const table of tables) {
    // Generated columns cannot be written; they are recomputed on insert.
    const columns = (
      await pglite.query<{ name: string }>(
        `select quote_ident(attname) as name from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
        [table],
      )
    ).rows.map((r) => r.name);
    const rows = (await pglite.query<{ row: unknown }>(`select to_jsonb(t) as row from ${table} t`)).rows;
    if (rows.length > 0) contents.push({ table, columns, rows: rows.map((r) => r.row) });
  }
  const sequences = (
    await pglite.query<{ name: string; last_value: number | null }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value from pg_sequences`,
    )
  ).rows.map((r) => ({ name: r.name, lastValue: r.last_value }));
  const fingerprint = await fingerprintOf(pglite);
  return { pglite, tables, contents, sequences, fingerprint, inUse: false };
}

/** Back to the template's rows and sequences; triggers stay off meanwhile so derived counters are copied, not recounted. */
async function reset(p: Pooled): Promise<void> {
  if (p.pglite.isInTransaction()) await p.pglite.exec('rollback');
  await p.pglite.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    if (p.tables.length > 0) await tx.exec(`truncate ${p.tables.join(', ')}`);
    for (const { table, columns, rows } of p.contents) {
      const list = columns.join(', ');
      await tx.query(
        `insert into ${table} (${list}) overriding system value
         select ${list} from jsonb_populate_recordset(null::${table}, $1::jsonb)`,
        [JSON.stringify(rows)],
      );
    }
    for (const { name, lastValue } of p.sequences) {
      if (lastValue === null) await tx.exec(`alter sequence ${name} restart`);
      else await tx.query('select setval($1::regclass, $2, true)', [name, lastValue]);
    }
  });
}

async function fresh(): Promise<Pooled> {
  poolStats.boots++;
  const pglite = await createPGlite({ loadDataDir: template });
  return capture(pglite);
}

function handleOf(p: Pooled): DatabaseHandle {
  // keepOpen: destroying this Kysely hands the engine back instead of closing it.
  const db = new Kysely<Database>({ dialect: new PGliteDialect(p.pglite, { keepOpen: true }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      p.inUse = false;
    },
  };
}

/**
 * A PGlite in the template's state: this worker's engine when it is free (reset first), otherwise — a second
 * database inside one file — a fresh engine of its own, closed with its handle.
 */
export async function checkoutPGlite(templateTar: Blob): Promise<DatabaseHandle> {
  template ??= templateTar;
  if (pooled?.inUse) {
    poolStats.boots++;
    const pglite = await createPGlite({ loadDataDir: templateTar });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    return { db, kind: 'pglite', close: () => db.destroy() };
  }
  if (pooled) {
    if ((await fingerprintOf(pooled.pglite)) === pooled.fingerprint) {
      await reset(pooled);
      poolStats.reuses++;
    } else {
      poolStats.discarded++;
      await pooled.pglite.close();
      pooled = undefined;
    }
  }
  pooled ??= await fresh();
  pooled.inUse = true;
  return handleOf(pooled);
}
