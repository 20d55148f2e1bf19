import { afterAll, describe, expect, it } from 'vitest';
import { call, cardBalance, setUpProgramme } from './support/api';
import { freshDatabase, terminateBackends } from './support/database';
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

describe("the database terminates the servers' connections under load", () => {
  it('fails requests cleanly with 503, keeps both servers up, recovers, and the ledger verifies', async () => {
    const env = { ADMIN_PASSWORD: ADMIN.password };
    for (const port of [3348, 3349]) servers.push(spawnServer({ port, databaseUrl: database.url, env }));
    for (const server of servers) await waitForReady(server);
    const programme = await setUpProgramme(servers[0]!.url, ADMIN);
    const card = programme.cards[0]!;
    const load = startAccrualLoad({
      servers: () => servers.map((s) => s.url),
      apiKey: programme.apiKey,
      cardNumber: card,
      clients: 10,
      maxPerClient: 600,
    });

    // Before the fix a cut killed both processes ("Unhandled 'error' event"); fail at once if one dies.
    const alive = () => {
      const dead = servers.find((s) => !s.alive());
      if (dead) throw new Error(`server ${dead.pid} died:\n${dead.output().slice(-3000)}`);
      return true;
    };
    let terminated = 0;
    for (let round = 1; round <= 3; round++) {
      const before = load.acknowledged();
      await pollUntil(() => alive() && load.acknowledged() >= before + 60, {
        attempts: 600,
        what: `load, round ${round}`,
      });
      terminated += await terminateBackends(database.url, database.name);
    }
    // The servers got through it on fresh connections: more work is acknowledged after the last cut.
    const after = load.acknowledged();
    await pollUntil(() => alive() && load.acknowledged() >= after + 60, {
      attempts: 600,
      what: 'load after the cuts',
    });
    await load.stop();

    expect(terminated).toBeGreaterThan(0);
    for (const server of servers) expect(server.alive(), server.output()).toBe(true);
    const statuses = new Set(load.sent.map((s) => s.answer.status));
    // 201, or 503 SERVICE_UNAVAILABLE in the error envelope: never a 500, never a dropped connection.
    expect([...statuses].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    for (const s of load.sent.filter((x) => x.answer.status === 503)) {
      expect(s.answer.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    }
    for (const server of servers) expect(await readyStatus(server.url)).toBe(200);
    const health = await call(servers[1]!.url, 'GET', '/auth/api/v1/users', { token: programme.token });
    expect(health.status).toBe(200);

    expect(await settle(servers[1]!.url, programme.apiKey, load.sent)).toEqual([]);
    expect((await cardBalance(servers[0]!.url, programme.apiKey, card)).balance).toBe(load.sent.length);
    const ledger = verifyLedger(database.url);
    expect(ledger.ok, ledger.output).toBe(true);
    console.info(
      `terminate: ${terminated} backends cut, ${load.sent.length} accruals, ${load.count(503)} answered 503`,
    );
  });
});
