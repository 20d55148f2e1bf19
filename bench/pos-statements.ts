import pg from 'pg';

/**
 * `BENCH_STATEMENTS=1 npm run bench:pos`: what each phase's statements cost PostgreSQL, from
 * pg_stat_statements (with `pg_stat_statements.track = all`, the derived-data triggers' statements and the
 * foreign-key checks show as statements of their own). The extension must be preloaded on the server
 * (`shared_preload_libraries = 'pg_stat_statements'`, a restart); without it this prints why and the bench
 * runs as usual. Times are wall time inside PostgreSQL, lock waits included (a hot card's locking reads),
 * so compare shares within a phase rather than against other runs.
 */
export async function statementMeter(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select 1 from pg_stat_statements limit 1');
  } catch (error) {
    console.log(`BENCH_STATEMENTS: pg_stat_statements unavailable (${(error as Error).message})`);
    await client.end();
    return undefined;
  }
  const dbid = `(select oid from pg_database where datname = $1)`;
  return {
    /** Forgets this database's statements: the next report covers what ran since. */
    async reset() {
      await client.query(`select pg_stat_statements_reset(0, ${dbid}, 0)`, [database]);
    },
    /** The statements that took the most time since the reset, per request of the phase. */
    async report(phase: string, requests: number, top = 12) {
      const { rows } = await client.query<{
        ms: number;
        calls: string;
        query: string;
        total: number;
        toplevel: boolean;
      }>(
        `select total_exec_time as ms, calls, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query,
           sum(total_exec_time) filter (where toplevel) over () as total
         from pg_stat_statements where dbid = ${dbid} order by total_exec_time desc limit ${top}`,
        [database],
      );
      const n = Math.max(requests, 1);
      console.log(
        `\nstatements of "${phase}" (ms per request, share of the top-level statements' time, calls per request;` +
          ` ↳ = run inside another statement, a trigger or a foreign-key check, and counted in its time too):`,
      );
      for (const r of rows)
        console.log(
          `  ${(r.ms / n).toFixed(3).padStart(7)}  ${((100 * r.ms) / r.total).toFixed(1).padStart(5)}%  ` +
            `${(Number(r.calls) / n).toFixed(1).padStart(4)}×  ${r.toplevel ? '' : '↳ '}${r.query}`,
        );
    },
    close: () => client.end(),
  };
}
