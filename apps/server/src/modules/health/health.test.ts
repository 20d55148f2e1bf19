import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, TEST_JWT_SECRET } from '../../../test/helper';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/connection';
import { READINESS_TIMEOUT_MS } from './health.routes';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function unreadyApp() {
  return buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
      HOLD_SWEEP_INTERVAL_MS: '0',
      POINTS_EXPIRY_INTERVAL_MS: '0',
      WEBHOOK_POLL_INTERVAL_MS: '0',
    }),
    database,
    secrets: { jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) },
  });
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answers to requests written on one socket, read until the server closes it. */
function parseAnswers(raw: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    answers.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

describe('a request that arrives while the server shuts down', () => {
  it('is answered 503 SERVICE_UNAVAILABLE in the envelope, with Connection: close; the one in flight is answered', async () => {
    const app = await unreadyApp();
    // A request held in flight by the test (not a sleep): it keeps the connection, and so the close, open.
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/api/test-held', async () => {
      entered();
      await released;
      return { held: 'done' };
    });
    let closing!: () => void;
    const closeStarted = new Promise<void>((resolve) => {
      closing = resolve;
    });
    app.addHook('preClose', (done) => {
      closing();
      done();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      raw += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /api/test-held HTTP/1.1\r\nHost: till\r\nConnection: keep-alive\r\n\r\n');
    await inFlight;
    const closed = app.close();
    await closeStarted;
    // The till's next request on the same keep-alive connection, once the server is closing.
    socket.write('GET /pos/api/v1/cards/1234 HTTP/1.1\r\nHost: till\r\nConnection: keep-alive\r\n\r\n');
    release();
    await ended;
    await closed;

    const [first, second, ...more] = parseAnswers(raw);
    expect(more).toEqual([]);
    expect(first?.status).toBe(200);
    expect(JSON.parse(first!.body)).toEqual({ held: 'done' });
    expect(second?.status).toBe(503);
    expect(second?.headers.connection).toBe('close');
    const body = JSON.parse(second!.body);
    expect(body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(typeof body.message).toBe('string');
    expect(typeof body.requestId).toBe('string');
  });
});

describe('/readyz', () => {
  it('answers 503 while the server drains before it stops, and the other routes are still served', async () => {
    const app = await unreadyApp();
    try {
      await app.ready();
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      app.lifecycle.draining = true;
      const ready = await app.inject({ url: '/readyz', headers: { 'x-request-id': 'probe-draining' } });
      expect(ready.statusCode).toBe(503);
      // The one error envelope (ARCHITECTURE): a balancer's failed probe can be found in the log by its id.
      expect(ready.json()).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        requestId: 'probe-draining',
      });
      expect(ready.json().message).toMatch(/shutting down/i);
      // As its document says of every 503.
      expect(ready.headers['retry-after']).toBe('1');
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/pos/api/v1/cards/1234' })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('answers 503 "busy" within its bound when no connection (or lock) can be had, instead of hanging', async () => {
    const app = await unreadyApp();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    try {
      await app.ready();
      // A maintenance step's exclusive lock (on PGlite, whose one connection it holds): reads queue behind it.
      const maintenance = database.db.transaction().execute(async (trx) => {
        await sql`lock table kysely_migration in access exclusive mode`.execute(trx);
        locked();
        await released;
      });
      await holding;
      // Released after the bound and a margin in any case, so a probe that waits answers late, not never.
      const fallback = setTimeout(release, READINESS_TIMEOUT_MS + 1500);
      const started = Date.now();
      const [first, second] = await Promise.all([
        app.inject({ url: '/readyz' }),
        app.inject({ url: '/readyz' }),
      ]);
      clearTimeout(fallback);
      expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 1500);
      for (const ready of [first, second]) {
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
        expect(ready.json().requestId).toBe(ready.headers['x-request-id']);
        expect(ready.json().message).toMatch(/^Database busy: no connection within 2 s/);
      }
      release();
      await maintenance;
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      release();
      await app.close();
    }
  });

  it('answers 503 when a newer version migrated the database (migrations this server does not know)', async () => {
    const app = await unreadyApp();
    const future = '999-from-a-newer-version';
    try {
      await app.ready();
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      await sql`insert into kysely_migration (name, timestamp)
        values (${future}, ${new Date().toISOString()})`.execute(database.db);
      const ready = await app.inject({ url: '/readyz', headers: { 'x-request-id': 'probe-newer' } });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        requestId: 'probe-newer',
      });
      expect(ready.json().message).toContain(future);
      expect(ready.json().message).toMatch(/newer version/);
    } finally {
      await sql`delete from kysely_migration where name = ${future}`.execute(database.db);
      await app.close();
    }
    const after = await unreadyApp();
    try {
      expect((await after.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await after.close();
    }
  });

  it('answers 503 "Database unreachable" in the envelope, with the request id, when the read fails', async () => {
    const app = await unreadyApp();
    await app.ready();
    // Every statement fails as on a database that went away (the read is `sql`…`.execute(db)`).
    const executor = database.db.getExecutor();
    const failing = vi.spyOn(database.db, 'getExecutor').mockReturnValue(
      Object.assign(Object.create(executor), {
        executeQuery: () => Promise.reject(Object.assign(new Error('connection lost'), { code: '57P01' })),
      }),
    );
    try {
      const ready = await app.inject({ url: '/readyz', headers: { 'x-request-id': 'probe-down' } });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 503,
        message: 'Database unreachable',
        code: 'SERVICE_UNAVAILABLE',
        requestId: 'probe-down',
      });
    } finally {
      failing.mockRestore();
      await app.close();
    }
  });
});
