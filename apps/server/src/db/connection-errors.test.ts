import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../../test/helper';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from './connection';
import { isConnectionError } from './connection-errors';

const withCode = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('takes a session the server ended as the connection gone, whichever way pg reports it', () => {
    // The FATAL itself, when the next statement was already on its way (pg hands it to that statement).
    expect(
      isConnectionError(withCode('25P03', 'terminating connection due to idle-in-transaction timeout')),
    ).toBe(true);
    expect(isConnectionError(withCode('25P04'))).toBe(true);
    expect(isConnectionError(withCode('57P01'))).toBe(true);
    expect(isConnectionError(withCode('08006'))).toBe(true);
    // Refused at connect or out of resources: the database dropped, the role gone, too many connections.
    expect(isConnectionError(withCode('3D000', 'database "x" does not exist'))).toBe(true);
    expect(isConnectionError(withCode('28P01', 'password authentication failed'))).toBe(true);
    expect(isConnectionError(withCode('53300', 'sorry, too many clients already'))).toBe(true);
    expect(isConnectionError(withCode('55000', 'database "x" is not currently accepting connections'))).toBe(
      true,
    );
    expect(isConnectionError(withCode('57P03', 'the database system is starting up'))).toBe(true);
    // Or the closed socket, when the client was idle.
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new Error('x', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('leaves errors about the statement to the statement', () => {
    expect(isConnectionError(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isConnectionError(withCode('40P01', 'deadlock detected'))).toBe(false);
    expect(isConnectionError(withCode('25P02', 'current transaction is aborted'))).toBe(false);
    expect(isConnectionError('Connection terminated')).toBe(false);
    expect(
      isConnectionError(withCode('55000', 'currval of sequence "s" is not yet defined in this session')),
    ).toBe(false);
  });
});

// A real refusal needs a real server: a database closed to connections for maintenance
// (`alter database … allow_connections false`) refuses with 55000, which answered 500 and logged a stack a second.
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
describe.skipIf(!serverUrl)('a database closed to connections (allow_connections false)', () => {
  const name = `loyalty_closed_${process.pid}`;
  let admin: pg.Client;
  let database: DatabaseHandle;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.query(`alter database ${name} allow_connections false`);
    const url = new URL(serverUrl ?? '');
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString() });
  });
  afterAll(async () => {
    await database?.close();
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  it('is a connection error (the refusal at connect), while a statement error on a live connection is not', async () => {
    const refused = await sql`select 1`.execute(database.db).catch((error: unknown) => error);
    expect((refused as { code?: string }).code).toBe('55000');
    expect(isConnectionError(refused)).toBe(true);

    // The same SQLSTATE from a statement on an established connection (currval before nextval) keeps its
    // meaning: a statement's error, not an outage.
    const open = await openDatabase({ databaseUrl: serverUrl });
    try {
      const statement = await open.db
        .transaction()
        .execute(async (trx) => {
          await sql`create temporary sequence zz_unused_seq`.execute(trx);
          await sql`select currval('zz_unused_seq')`.execute(trx);
        })
        .catch((error: unknown) => error);
      expect((statement as { code?: string }).code).toBe('55000');
      expect(isConnectionError(statement)).toBe(false);
    } finally {
      await open.close();
    }
  });

  it('answers requests 503 SERVICE_UNAVAILABLE, and the workers warn once instead of a stack a second', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'info',
        WEB_DIST: '/nonexistent',
        HOLD_SWEEP_INTERVAL_MS: '50',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      }),
      database,
      secrets: { jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) },
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      await app.ready();
      const login = await app.inject({
        method: 'POST',
        url: '/auth/api/v1/login',
        payload: { username: 'admin', password: 'whatever-password' },
      });
      expect(login.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      const pos = await app.inject({
        url: '/pos/api/v1/cards/1234567890',
        headers: { 'x-api-key': 'k'.repeat(40) },
      });
      expect(pos.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      await new Promise((resolve) => setTimeout(resolve, 600));
    } finally {
      await app.close();
    }
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
    const warnings = logged.filter((l) => l.level === 40 && l.msg.includes('the database is unavailable'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.length).toBeLessThanOrEqual(3);
  });
});

describe.skipIf(!serverUrl)("the pool's connection-lost warnings", () => {
  it('go to the JSON log at warn, not to stderr as plain text', async () => {
    const database = await openDatabase({ databaseUrl: serverUrl });
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'info', WEB_DIST: '/nonexistent', HOLD_SWEEP_INTERVAL_MS: '0' }),
      database,
      secrets: { jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) },
      logStream: { write: (line) => lines.push(line) },
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const killer = new pg.Client({ connectionString: serverUrl });
    try {
      await app.ready();
      // A client idle in the pool whose backend is ended (a restart, pg_terminate_backend).
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      const logged = () =>
        lines
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .filter((l) => l.msg.startsWith('PostgreSQL '));
      for (let i = 0; i < 200 && logged().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(logged()).toEqual([
        expect.objectContaining({
          level: 40,
          code: '57P01',
          msg: expect.stringContaining('terminating connection'),
        }),
      ]);
      // Nothing of the client (its connection settings) in the line.
      expect(lines.join('\n')).not.toContain('connectionParameters');
      expect(warnings.filter((w) => w.startsWith('PostgreSQL '))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await killer.end();
      await app.close();
      await database.close();
    }
  });
});
