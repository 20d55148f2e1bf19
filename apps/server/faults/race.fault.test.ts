import { afterAll, describe, expect, it } from 'vitest';
import { type Answer, call, cardBalance, setUpProgramme } from './support/api';
import { freshDatabase } from './support/database';
import { verifyLedger } from './support/ledger';
import { type ServerProcess, spawnServer, stopServers, waitForReady } from './support/server-process';

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

/** The answer without what legitimately differs between a first answer and its replay. */
const same = (a: Answer) => JSON.stringify({ status: a.status, body: a.body });

describe('two servers racing holds and duplicate operationIds on one card', () => {
  it('gives one effect per operationId and an exact ledger', async () => {
    const env = { ADMIN_PASSWORD: ADMIN.password };
    for (const port of [3346, 3347]) servers.push(spawnServer({ port, databaseUrl: database.url, env }));
    for (const server of servers) await waitForReady(server);
    const [a, b] = servers.map((s) => s.url) as [string, string];
    const programme = await setUpProgramme(a, ADMIN);
    const card = programme.cards[0]!;
    const pos = (url: string, path: string, body: unknown) =>
      call(url, 'POST', path, { body, apiKey: programme.apiKey });

    // 100 points: a 1,000.00 receipt at 10%.
    const seed = await pos(a, '/pos/api/v1/accruals', {
      operationId: 'race-seed',
      cardNumber: card,
      receipt: { receiptId: 'race-seed', items: [{ sku: 'SEED', quantity: 1, price: 1000 }] },
    });
    expect(seed.status).toBe(201);

    // 30 holds of 10 points, each operationId sent to both servers at the same moment: 10 fit.
    const holdIds = Array.from({ length: 30 }, (_, i) => `race-hold-${i}`);
    const holds = await Promise.all(
      holdIds.map((operationId) =>
        Promise.all(
          [a, b].map((url) => pos(url, '/pos/api/v1/holds', { operationId, cardNumber: card, points: 10 })),
        ),
      ),
    );
    for (const [first, second] of holds) expect(same(first!)).toBe(same(second!));
    const granted = holds.map(([first]) => first!).filter((h) => h.status === 201);
    const refused = holds.map(([first]) => first!).filter((h) => h.status !== 201);
    expect(granted).toHaveLength(10);
    expect(new Set(granted.map((h) => h.body!.holdId)).size).toBe(10);
    for (const r of refused) expect(r.body).toMatchObject({ status: 409, code: 'INSUFFICIENT_FUNDS' });
    expect(await cardBalance(b, programme.apiKey, card)).toMatchObject({
      balance: 100,
      heldBalance: 100,
      availableBalance: 0,
    });

    // Each hold: a capture of 7 points sent twice (once per server) racing a release: exactly one wins.
    const settled = await Promise.all(
      granted.map(async (hold, i) => {
        const holdId = hold.body!.holdId as string;
        const capture = { operationId: `race-capture-${i}`, points: 7 };
        const [c1, c2, release] = await Promise.all([
          pos(a, `/pos/api/v1/holds/${holdId}/capture`, capture),
          pos(b, `/pos/api/v1/holds/${holdId}/capture`, capture),
          pos(i % 2 ? a : b, `/pos/api/v1/holds/${holdId}/release`, { operationId: `race-release-${i}` }),
        ]);
        expect(same(c1)).toBe(same(c2));
        expect([c1.status, release.status].filter((s) => s === 200)).toHaveLength(1);
        return c1.status === 200 ? 7 : 0;
      }),
    );
    const captured = settled.reduce<number>((sum, p) => sum + p, 0);
    expect(await cardBalance(a, programme.apiKey, card)).toMatchObject({
      balance: 100 - captured,
      heldBalance: 0,
      availableBalance: 100 - captured,
    });

    const ledger = verifyLedger(database.url);
    expect(ledger.ok, ledger.output).toBe(true);
  });
});
