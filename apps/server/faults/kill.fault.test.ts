import { afterAll, describe, expect, it } from 'vitest';
import { metricSum } from '../src/plugins/metrics.test-support';
import { cardBalance, setUpProgramme } from './support/api';
import { freshDatabase } from './support/database';
import { verifyLedger } from './support/ledger';
import { settle, startAccrualLoad } from './support/load';
import { pollUntil } from './support/poll';
import {
  readyStatus,
  type ServerProcess,
  spawnServer,
  stopServers,
  waitForReady,
} from './support/server-process';

const ADMIN = { username: 'admin', password: 'fault-admin-password' };
const database = await freshDatabase();
const servers: ServerProcess[] = [];
afterAll(async () => {
  try {
    await stopServers(servers);
  } finally {
    await database.drop();
  }
});

describe('kill -9 of a server during a POS load', () => {
  it('loses no acknowledged operation, applies none twice, and the ledger verifies', async () => {
    const env = { ADMIN_PASSWORD: ADMIN.password };
    const victim = spawnServer({ port: 3344, databaseUrl: database.url, env });
    servers.push(victim);
    await waitForReady(victim);
    const programme = await setUpProgramme(victim.url, ADMIN);
    const card = programme.cards[0]!;

    const load = startAccrualLoad({
      servers: () => [victim.url],
      apiKey: programme.apiKey,
      cardNumber: card,
      clients: 8,
      maxPerClient: 400,
    });
    await pollUntil(() => load.acknowledged() >= 150, { attempts: 600, what: '150 acknowledged accruals' });
    // Eight tills on one card: its writes are group-committed (issue 13), so the kill cuts batches too.
    const metrics = await (await fetch(`${victim.url}/metrics`)).text();
    const batched = metricSum(metrics, 'loyalty_pos_group_commit_batch_size_sum', { outcome: 'committed' });
    expect(batched).toBeGreaterThan(0);
    await victim.kill('SIGKILL');
    expect(victim.alive()).toBe(false);
    // Really gone: nothing answers on its port any more.
    expect(await readyStatus(victim.url)).toBeNull();
    await load.stop();

    // Everything the till was told happened must still be there when a server comes back.
    const survivor = spawnServer({ port: 3345, databaseUrl: database.url, env });
    servers.push(survivor);
    await waitForReady(survivor);
    const acknowledged = load.acknowledged();
    expect(acknowledged).toBeGreaterThanOrEqual(150);
    expect(load.sent.every((s) => s.answer.status === 201 || s.answer.status === 0)).toBe(true);

    expect(await settle(survivor.url, programme.apiKey, load.sent)).toEqual([]);
    // Each accrual earns exactly 1 point: the balance counts each operationId once.
    const balance = await cardBalance(survivor.url, programme.apiKey, card);
    expect(balance.balance).toBe(load.sent.length);

    const ledger = verifyLedger(database.url);
    expect(ledger.ok, ledger.output).toBe(true);
    console.info(
      `kill -9: ${acknowledged} acknowledged, ${load.count(0)} cut off unanswered, ${load.sent.length} in all; ${batched} group-committed before the kill`,
    );
  });
});
