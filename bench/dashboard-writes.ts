import pg from 'pg';
import { meterDatabase, selfCpuMs } from './pos-cpu';

/**
 * Write overhead of the analytics rollup triggers: the same fixed batch of accrual-like transactions
 * (lock the account, insert a completed operation, credit the balance), from concurrent clients, with the
 * analytics_* triggers enabled and disabled in alternating rounds on a scratch copy of the bench database.
 * Every other trigger (row counters, foreign keys) stays on in both modes. Throughput moves with the
 * neighbours' load on a shared machine; the CPU one transaction costs in its PostgreSQL backend (read from
 * /proc by bench/pos-cpu.ts) moves far less, so both are reported.
 */
export interface WriteRound {
  triggers: 'on' | 'off';
  tps: number;
  meanMs: number;
  /** CPU ms per transaction in the database backends, and in this process (the client). */
  databaseCpuMs: number;
  clientCpuMs: number;
}

interface Target {
  accountId: string;
  cardId: string;
  cardNumber: string;
}

const TABLES = ['operations', 'accounts', 'cards'];

async function setTriggers(client: pg.Client, enabled: boolean): Promise<void> {
  const { rows } = await client.query<{ table: string; name: string }>(
    `select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and t.tgname like 'analytics\\_%' and c.relname = any($1)`,
    [TABLES],
  );
  for (const { table, name } of rows) {
    await client.query(`alter table ${table} ${enabled ? 'enable' : 'disable'} trigger ${name}`);
  }
}

async function round(
  meter: () => Promise<{ stop(): Promise<number> }>,
  pool: pg.Pool,
  targets: Target[],
  clients: number,
  perClient: number,
  tag: string,
  offset: number,
) {
  const databaseCpu = await meter();
  const clientCpu = selfCpuMs();
  const started = performance.now();
  let totalMs = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      const client = await pool.connect();
      try {
        for (let i = 0; i < perClient; i++) {
          const target = targets[(offset + worker * perClient + i) % targets.length]!;
          const points = ((worker * 7919 + i * 104_729) % 5000) / 100 + 0.5;
          const t = performance.now();
          await client.query('begin');
          await client.query('select balance from accounts where id = $1 for update', [target.accountId]);
          await client.query(
            `insert into operations (operation_id, type, status, points, account_id, card_id, card_number, meta)
             values ($1, 'accrual', 'completed', $2, $3, $4, $5, $6)`,
            [
              `${tag}-${worker}-${i}`,
              points,
              target.accountId,
              target.cardId,
              target.cardNumber,
              JSON.stringify({ store: 'bench', transactionId: `${tag}-${worker}-${i}` }),
            ],
          );
          await client.query('update accounts set balance = balance + $1 where id = $2', [
            points,
            target.accountId,
          ]);
          await client.query('commit');
          totalMs += performance.now() - t;
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const count = clients * perClient;
  return {
    tps: count / seconds,
    meanMs: totalMs / count,
    databaseCpuMs: (await databaseCpu.stop()) / count,
    clientCpuMs: (selfCpuMs() - clientCpu) / count,
  };
}

/** Copies `sourceUrl`'s database to a scratch one, runs the rounds there, and drops it. */
export async function measureWriteOverhead(
  sourceUrl: string,
  options: {
    clients: number;
    perClient: number;
    pairs: number;
    log: (line: string) => void;
  },
): Promise<WriteRound[]> {
  const source = new URL(sourceUrl);
  const scratchName = `${source.pathname.slice(1)}_writes`;
  const admin = new pg.Client({ connectionString: new URL('/postgres', source).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${scratchName} with (force)`);
  options.log(`copying ${source.pathname.slice(1)} to ${scratchName} …`);
  await admin.query(`create database ${scratchName} template ${source.pathname.slice(1)} strategy file_copy`);
  const scratchUrl = new URL(`/${scratchName}`, source).toString();
  const control = new pg.Client({ connectionString: scratchUrl });
  const pool = new pg.Pool({ connectionString: scratchUrl, max: options.clients });
  const rounds: WriteRound[] = [];
  const meter = () => meterDatabase(new URL('/postgres', source).toString(), scratchName);
  try {
    await control.connect();
    const { rows: targets } = await control.query<Target>(
      `select account_id as "accountId", id as "cardId", number as "cardNumber"
       from cards where status = 'active' order by random() limit 100000`,
    );
    await control.query('analyze');
    // Each round credits accounts not yet touched that day, like a day of real accruals (an account
    // buys about once a day), rather than hammering the same rows. Warm-up first (caches, connections),
    // then alternate on/off so drift hits both modes alike.
    const batch = options.clients * options.perClient;
    let offset = 0;
    await round(meter, pool, targets, options.clients, options.perClient, 'warm', offset);
    for (let pair = 0; pair < options.pairs; pair++) {
      const order: Array<'on' | 'off'> = pair % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const mode of order) {
        await setTriggers(control, mode === 'on');
        offset += batch;
        const result = await round(
          meter,
          pool,
          targets,
          options.clients,
          options.perClient,
          `${mode}${pair}`,
          offset,
        );
        rounds.push({ triggers: mode, ...result });
        options.log(
          `writes, triggers ${mode}: ${result.tps.toFixed(0)} tx/s, ${result.meanMs.toFixed(2)} ms mean, ` +
            `${result.databaseCpuMs.toFixed(3)} ms database CPU per transaction`,
        );
      }
    }
  } finally {
    await pool.end();
    await control.end();
    await admin.query(`drop database if exists ${scratchName} with (force)`);
    await admin.end();
  }
  return rounds;
}
