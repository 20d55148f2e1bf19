import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { call, login } from './support/api';
import { freshDatabase, query } from './support/database';
import { pollUntil } from './support/poll';
import {
  listeningUrl,
  readyStatus,
  type ServerProcess,
  spawnServer,
  stopServers,
} from './support/server-process';

const ADMIN = { username: 'admin', password: 'fault-admin-password' };
const database = await freshDatabase();
const servers: ServerProcess[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  try {
    for (const socket of sockets) socket.destroy();
    await stopServers(servers);
  } finally {
    await database.drop();
  }
});

/** A server on any free port, logging its requests (the tests wait for them in its output). */
async function startServer(env: Record<string, string>) {
  const server = spawnServer({
    port: 0,
    databaseUrl: database.url,
    env: { ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'info', ...env },
  });
  servers.push(server);
  const url = await listeningUrl(server);
  await pollUntil(async () => (await readyStatus(url)) === 200, { what: `${url}/readyz 200` });
  return { server, url };
}

/** Waits for the process's own exit; `kill` sends the signal only while it still runs. */
const exited = (server: ServerProcess) => server.kill('SIGTERM');

describe('SIGTERM', () => {
  it('exits after SHUTDOWN_GRACE_MS although a client is still uploading, closing its connection', async () => {
    const { server, url } = await startServer({ SHUTDOWN_GRACE_MS: '500' });
    const token = await login(url, ADMIN.username, ADMIN.password);
    const { hostname, port } = new URL(url);
    const upload = connect(Number(port), hostname);
    sockets.push(upload);
    const uploadClosed = new Promise<void>((resolve) => upload.once('close', () => resolve()));
    upload.on('error', () => {});
    // A CSV import that announces 1 MB and sends its first 2,500 rows only (a script on a slow line): the
    // first 2,000 are spooled into import_rows before the rest arrives.
    const rows = Array.from({ length: 2500 }, (_, n) => `slow-member-${n}`).join('\n');
    upload.write(
      [
        'POST /api/v1/imports/accounts HTTP/1.1',
        `Host: ${hostname}`,
        `Authorization: Bearer ${token}`,
        'Content-Type: text/csv',
        'Content-Length: 1000000',
        '',
        `clientId\n${rows}\n`,
      ].join('\r\n'),
    );
    const spooled = async () =>
      (await query<{ n: number }>(database.url, 'select count(*)::int as n from import_rows'))[0]!.n;
    await pollUntil(async () => (await spooled()) >= 2000, {
      what: 'the upload in flight, its first rows spooled',
      detail: server.output,
    });

    process.kill(server.pid, 'SIGTERM');
    // Before the grace period the process waited for the upload (Node's requestTimeout: 300 s).
    await exited(server);
    await uploadClosed;
    expect(server.alive()).toBe(false);
    expect(server.output()).toContain('shutdown grace period over');
    // The import removed its spooled rows before the database closed (they stayed for a later import's
    // hourly sweep: up to IMPORT_MAX_BYTES of rows per stopped upload).
    expect(await spooled()).toBe(0);
  });

  it('answers the request in flight, and one that then comes on its kept-alive connection 503 in the envelope', async () => {
    const { server, url } = await startServer({ SHUTDOWN_GRACE_MS: '600000' });
    const token = await login(url, ADMIN.username, ADMIN.password);
    // The request is held in flight by a lock the test holds (released below), not by a sleep.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table users in access exclusive mode');
      const { hostname, port } = new URL(url);
      const till = connect(Number(port), hostname);
      sockets.push(till);
      let raw = '';
      till.setEncoding('utf8');
      till.on('data', (chunk) => {
        raw += chunk;
      });
      const tillClosed = new Promise<void>((resolve) => till.once('close', () => resolve()));
      const get = (path: string) =>
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nConnection: keep-alive\r\n\r\n`;
      till.write(get('/auth/api/v1/users'));
      await pollUntil(
        async () =>
          (
            await query<{ n: number }>(
              database.url,
              'select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where not l.granted and d.datname = $1',
              [database.name],
            )
          )[0]!.n > 0,
        { what: 'the request waiting for the lock', detail: server.output },
      );

      process.kill(server.pid, 'SIGTERM');
      // The port is closed: nothing new connects; the held request and its connection are still there.
      await pollUntil(async () => (await readyStatus(url)) === null, { what: 'the port closed' });
      expect(server.alive()).toBe(true);
      till.write(get('/auth/api/v1/users'));
      // Read by the server (its log line) before the first is answered, as a till's request can be.
      await pollUntil(() => server.output().split('"url":"/auth/api/v1/users"').length === 3, {
        what: 'the second request read',
        detail: server.output,
      });
      await locker.query('commit');
      await tillClosed;
      await exited(server);

      const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([200, 503]);
      const refused = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
      expect(refused).toMatch(/^connection: close$/im);
      const body = JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(body.requestId).toEqual(expect.any(String));
    } finally {
      await locker.end();
    }
  });

  it('with SHUTDOWN_DRAIN_MS, /readyz answers 503 first while requests are still served', async () => {
    const { server, url } = await startServer({ SHUTDOWN_DRAIN_MS: '600000', SHUTDOWN_GRACE_MS: '5000' });
    const token = await login(url, ADMIN.username, ADMIN.password);

    process.kill(server.pid, 'SIGTERM');
    await pollUntil(async () => (await readyStatus(url)) === 503, {
      what: '/readyz 503 while draining',
      detail: server.output,
    });
    const ready = await call(url, 'GET', '/readyz');
    expect(ready.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Shutting down' });
    // Still serving, on new connections too: the balancer has not taken it out yet.
    expect((await call(url, 'GET', '/healthz')).status).toBe(200);
    expect((await call(url, 'GET', '/auth/api/v1/users', { token })).status).toBe(200);
    expect(server.alive()).toBe(true);

    // A second signal cuts the drain short (an operator who will not wait): the server closes and exits.
    await exited(server);
    expect(server.alive()).toBe(false);
    expect(await readyStatus(url)).toBeNull();
  });
});
