import { afterAll, describe, expect, it } from 'vitest';
import { cardBalance, setUpProgramme } from './support/api';
import { freshDatabase, type PrivatePostgres, startPrivatePostgres } from './support/database';
import { verifyLedger } from './support/ledger';
import { settle, startAccrualLoad } from './support/load';
import { pollUntil } from './support/poll';
import { readyStatus, type ServerProcess, spawnServer, waitForReady } from './support/server-process';

const ADMIN = { username: 'admin', password: 'fault-admin-password' };
// Never the machine's shared PostgreSQL: a private instance this test may stop and start.
const postgres: PrivatePostgres = await startPrivatePostgres(Number(process.env.FAULTS_PG_PORT ?? 5441));
const database = await freshDatabase(postgres.url);
let server: ServerProcess | undefined;
afterAll(async () => {
  try {
    await server?.kill();
  } finally {
    postgres.destroy();
  }
});

describe('the database restarted under load', () => {
  it('answers 503 while it is down, /readyz tells the truth, and the server recovers by itself', async () => {
    server = spawnServer({ port: 3350, databaseUrl: database.url, env: { ADMIN_PASSWORD: ADMIN.password } });
    const live = server;
    await waitForReady(live);
    const programme = await setUpProgramme(live.url, ADMIN);
    const card = programme.cards[0]!;
    const load = startAccrualLoad({
      servers: () => [live.url],
      apiKey: programme.apiKey,
      cardNumber: card,
      clients: 6,
      maxPerClient: 3_000,
    });
    const alive = () => {
      if (!live.alive()) throw new Error(`server died:\n${live.output().slice(-3000)}`);
      return true;
    };
    await pollUntil(() => alive() && load.acknowledged() >= 100, { attempts: 600, what: '100 accruals' });

    // A crash-like stop: no checkpoint, recovery from the WAL on the next start.
    postgres.stop('immediate');
    await waitForReady(live, 503);
    const refusedBefore = load.count(503);
    await pollUntil(() => alive() && load.count(503) >= refusedBefore + 20, {
      attempts: 600,
      what: 'POS writes answered 503 while the database is down',
    });
    expect(await readyStatus(live.url)).toBe(503);

    await postgres.start();
    await waitForReady(live, 200);
    const ackedAfterRestart = load.acknowledged();
    await pollUntil(() => alive() && load.acknowledged() >= ackedAfterRestart + 100, {
      attempts: 600,
      what: 'accruals acknowledged after the restart',
    });
    await load.stop();

    expect(live.alive()).toBe(true);
    const others = load.sent.filter((s) => s.answer.status !== 201 && s.answer.status !== 503);
    expect(others.map((s) => `${s.answer.status} ${JSON.stringify(s.answer.body)}`)).toEqual([]);
    for (const s of load.sent.filter((x) => x.answer.status === 503)) {
      expect(s.answer.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    }

    expect(await settle(live.url, programme.apiKey, load.sent)).toEqual([]);
    expect((await cardBalance(live.url, programme.apiKey, card)).balance).toBe(load.sent.length);
    const ledger = verifyLedger(database.url);
    expect(ledger.ok, ledger.output).toBe(true);
    console.info(`restart: ${load.sent.length} accruals, ${load.count(503)} answered 503 while down`);
  });
});
