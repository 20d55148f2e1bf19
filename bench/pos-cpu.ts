import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * CPU accounting for bench/pos.ts. On a shared machine throughput moves with the neighbours' load, but the
 * CPU time one request costs does not: it is read from /proc for the server process, for every PostgreSQL
 * backend serving one database (found through pg_stat_activity, sampled so short-lived backends count too),
 * and for the load generator itself.
 */
const TICK_MS = 10; // Linux reports utime/stime in 1/100 s on every common configuration.

/** utime + stime of a process in ms, or undefined when it is gone. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces: fields start after the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

export interface CpuMeter {
  /** CPU ms used by the database's backends since start, including backends that came and went. */
  stop(): Promise<number>;
}

/** Samples the backends of `database` every 200 ms until stopped. */
export async function meterDatabase(adminUrl: string, database: string): Promise<CpuMeter> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    for (const { pid } of rows) {
      const cpu = processCpuMs(pid);
      if (cpu === undefined) continue;
      if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
      last.set(pid, cpu);
    }
  };
  let started = false;
  await sample();
  started = true;
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sample();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      let total = 0;
      for (const [pid, end] of last) total += end - (first.get(pid) ?? 0);
      return total;
    },
  };
}

/** CPU ms of this process (the load generator) between two calls. */
export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
