import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations';
import { call, login } from './support/api';
import { freshDatabase, query } from './support/database';
import { pollUntil } from './support/poll';
import { type ServerProcess, spawnServer, stopServers, waitForReady } from './support/server-process';

const database = await freshDatabase();
const servers: ServerProcess[] = [];
afterAll(async () => {
  try {
    await stopServers(servers);
  } finally {
    await database.drop();
  }
});

describe('three servers started together on one fresh database', () => {
  it('all become ready, the migrations run once and exactly one administrator exists', async () => {
    // Each would create its own admin if the check were not serialised; none sets ADMIN_PASSWORD, so the
    // one that created it prints the generated password.
    for (const [i, port] of [3341, 3342, 3343].entries()) {
      servers.push(
        spawnServer({ port, databaseUrl: database.url, env: { ADMIN_USERNAME: `admin${i + 1}` } }),
      );
    }
    await Promise.all(servers.map((server) => waitForReady(server)));
    expect(servers.every((s) => s.alive())).toBe(true);

    const banners = servers
      .map((server) => server.output().match(/Username: (\S+)\s+Password: (\S+)/))
      .filter((m) => m !== null);
    expect(banners).toHaveLength(1);
    const [, username, password] = banners[0]!;

    const token = await login(servers[2]!.url, username!, password!);
    const users = await call(servers[1]!.url, 'GET', '/auth/api/v1/users', { token });
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ totalElements: 1 });

    const applied = await query<{ name: string }>(database.url, 'select name from kysely_migration');
    expect(applied.map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
    const admins = await query<{ n: number }>(
      database.url,
      `select count(*)::int as n from users where role = 'ADMIN'`,
    );
    expect(admins[0]!.n).toBe(1);
  });

  it('a server started with other secrets than theirs refuses to start, and names the secret', async () => {
    // Its sessions and POS keys would work on it alone: every till and console behind the balancer would
    // get 401 from it. It exits before it listens.
    const odd = spawnServer({
      port: 3344,
      databaseUrl: database.url,
      env: { JWT_SECRET: 'another-jwt-secret-0123456789abcdefgh' },
    });
    servers.push(odd);
    await pollUntil(() => !odd.alive(), {
      attempts: 600,
      what: 'the server with other secrets to exit',
      detail: odd.output,
    });
    expect(odd.output()).toContain("JWT_SECRET is not the one this database's servers use");
    const health = await fetch(`${servers[0]!.url}/readyz`);
    expect(health.status).toBe(200);
  });
});
