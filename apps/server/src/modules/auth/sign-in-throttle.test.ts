import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { createUser } from '../users/users.service';
import { signInDelayMs } from './auth.service';

// A tiny slow-down keeps the test fast; its size is checked through signInDelayMs, not by a clock.
const ctx = await createTestContext({
  LOGIN_MAX_FAILURES_PER_USERNAME: '3',
  LOGIN_SLOWDOWN_BASE_MS: '1',
  LOGIN_SLOWDOWN_MAX_MS: '4',
});
const { app } = ctx;

const login = (username: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/auth/api/v1/login', payload: { username, password }, remoteAddress });
const unlock = (id: string, token = ctx.tokens.ADMIN) =>
  app.inject({ method: 'POST', url: `/auth/api/v1/users/${id}/unlock`, headers: bearer(token) });

describe('failed sign-ins are throttled per (username, address), the username only slowed (issue 15.7)', () => {
  it('an attacker cannot lock a user out: blocked at their address, the user signs in from theirs', async () => {
    for (let i = 0; i < 3; i++)
      expect((await login('manager', 'wrong-guess', '203.0.113.9')).statusCode).toBe(401);
    const blocked = await login('manager', 'wrong-guess', '203.0.113.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    // The attacker's right guess from that address is refused too: the pair is blocked.
    expect((await login('manager', PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    // From the user's own address the right password works (it used to be a 429 from every address).
    expect((await login('manager', PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('an IPv6 attacker is limited per /64: a new address in it for each guess does not escape the limit', async () => {
    for (let i = 1; i <= 3; i++)
      expect((await login('manager', 'v6-guess', `2001:db8:66:1::${i}`)).statusCode).toBe(401);
    expect((await login('manager', PASSWORD, '2001:db8:66:1::ffff')).statusCode).toBe(429);
    // Another /64 is another address; the audit shows each address as it came.
    expect((await login('manager', PASSWORD, '2001:db8:66:2::1')).statusCode).toBe(200);
    const res = await app.inject({
      url: '/api/v1/audit?targetType=auth&size=200',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const messages = (res.json().content as { message: string }[]).map((e) => e.message);
    expect(messages).toContain("Failed sign-in for 'manager' from 2001:db8:66:1::2");
  });

  it('a burst of concurrent guesses from one address is limited like the same guesses one by one', async () => {
    // All sent before any is answered: each used to pass the check before the others' failures were
    // written, so one burst per window tried as many passwords as the attacker liked.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login('viewer', `burst-guess-${i}`, '203.0.113.77')),
    );
    const statuses = burst.map((res) => res.statusCode);
    // Truly concurrent (PostgreSQL), some guesses may see others that are refused after all: never more than
    // the limit are checked, and the refused ones do not count.
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeLessThanOrEqual(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - checked);
    const failuresFrom = async (address: string) =>
      (
        await ctx.database.db
          .selectFrom('login_attempts')
          .select('id')
          .where('address', '=', address)
          .execute()
      ).length;
    expect(await failuresFrom('203.0.113.77')).toBe(checked);
    // One by one the attacker gets the rest of the limit, no more.
    for (let i = checked; i < 3; i++)
      expect((await login('viewer', `single-guess-${i}`, '203.0.113.77')).statusCode).toBe(401);
    expect((await login('viewer', PASSWORD, '203.0.113.77')).statusCode).toBe(429);
    expect(await failuresFrom('203.0.113.77')).toBe(3);
    // The user's own address is not blocked.
    expect((await login('viewer', PASSWORD, '198.51.100.77')).statusCode).toBe(200);
  });

  it('a refused sign-in is audited like a failed one, without the password', async () => {
    const auditOf = async (targetId?: string) => {
      const query = `targetType=auth&size=200${targetId ? `&targetId=${targetId}` : ''}`;
      const res = await app.inject({ url: `/api/v1/audit?${query}`, headers: bearer(ctx.tokens.ADMIN) });
      return res.json().content as { username: string; message: string; targetId: string | null }[];
    };
    for (let i = 0; i < 3; i++) await login('manager', 'wrong-guess', '203.0.113.60');
    // The right password too: refused before it is checked, and never written.
    expect((await login('manager', PASSWORD, '203.0.113.60')).statusCode).toBe(429);
    const refusals = (await auditOf(ctx.users.MANAGER)).filter((e) =>
      e.message.includes('203.0.113.60: refused'),
    );
    expect(refusals).toEqual([
      expect.objectContaining({
        username: 'manager',
        targetId: ctx.users.MANAGER,
        message: "Failed sign-in for 'manager' from 203.0.113.60: refused, too many failed attempts",
      }),
    ]);
    // A username no user has is refused and audited the same way, with no target and without that text (it
    // may be a password typed into the wrong field).
    for (let i = 0; i < 4; i++) await login('nobody-at-all', 'refused-guess', '203.0.113.61');
    const unknown = (await auditOf()).filter((e) => e.message.includes(' from 203.0.113.61: refused'));
    expect(unknown).toEqual([
      expect.objectContaining({
        username: null,
        targetId: null,
        message:
          'Failed sign-in for an unknown username from 203.0.113.61: refused, too many failed attempts',
      }),
    ]);
    const everything = JSON.stringify(await auditOf());
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('refused-guess');
    expect(everything).not.toContain('nobody-at-all');
  });

  it('many addresses guessing one username slow it down but never block it', async () => {
    for (let i = 0; i < 8; i++)
      expect((await login('viewer', 'wrong-guess', `192.0.2.${i}`)).statusCode).toBe(401);
    expect((await login('viewer', PASSWORD, '192.0.2.200')).statusCode).toBe(200);
  });

  it('the slow-down: none up to the limit, then doubling per failure, capped', () => {
    const limits = {
      LOGIN_WINDOW_SECONDS: 900,
      LOGIN_MAX_FAILURES_PER_USERNAME: 5,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 30,
      LOGIN_SLOWDOWN_BASE_MS: 500,
      LOGIN_SLOWDOWN_MAX_MS: 5000,
    };
    expect([0, 4, 5, 6, 7, 8, 9, 1000].map((n) => signInDelayMs(n, limits))).toEqual([
      0, 0, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
  });

  it('an ADMIN unlocks a user: every address may try again at once, and it is audited', async () => {
    for (let i = 0; i < 3; i++) await login('admin', 'wrong-guess', '203.0.113.50');
    expect((await login('admin', PASSWORD, '203.0.113.50')).statusCode).toBe(429);
    const res = await unlock(ctx.users.ADMIN);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await login('admin', PASSWORD, '203.0.113.50')).statusCode).toBe(200);
    const audit = await app.inject({
      url: `/api/v1/audit?targetType=user&targetId=${ctx.users.ADMIN}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0]).toMatchObject({
      username: 'admin',
      message: "Unlocked sign-in for 'admin' (3 failed attempts cleared)",
    });
  });

  it('only an ADMIN may unlock; an unknown user is a 404', async () => {
    expect((await unlock(ctx.users.VIEWER, ctx.tokens.MANAGER)).statusCode).toBe(403);
    expect((await unlock(ctx.users.VIEWER, ctx.tokens.VIEWER)).statusCode).toBe(403);
    const unknown = await unlock('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('USER_NOT_FOUND');
  });
});

describe('the limits hold for every spelling of a username that signs in as it', () => {
  it('the Kelvin sign K (lower case: k) counts against the user, whatever the database collation', async () => {
    await createUser(ctx.database.db, null, {
      username: 'kiosk',
      password: PASSWORD,
      email: null,
      fullName: null,
      role: 'VIEWER',
    });
    // A PostgreSQL database created with the C locale lower-cases ASCII only; a C column stands in for one.
    await sql`alter table login_attempts alter column username_key type text collate "C"`.execute(
      ctx.database.db,
    );
    try {
      // 'Kiosk' with the Kelvin sign signs in as kiosk (JavaScript lower-cases it to k) ...
      expect((await login('\u212Aiosk', PASSWORD, '192.0.2.90')).statusCode).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await login('\u212Aiosk', `kelvin-guess-${i}`, '203.0.113.90')).statusCode).toBe(401);
      // ... so its failures are the user's: that address is blocked for kiosk, however it is spelt.
      expect((await login('\u212Aiosk', 'kelvin-guess-x', '203.0.113.90')).statusCode).toBe(429);
      expect((await login('kiosk', 'kelvin-guess-y', '203.0.113.90')).statusCode).toBe(429);
    } finally {
      await sql`alter table login_attempts alter column username_key type text collate "default"`.execute(
        ctx.database.db,
      );
    }
  });
});

describe('attempts older than the window are pruned', () => {
  it('each sign-in deletes up to 100 attempts the throttle no longer reads; those in the window stay', async () => {
    const { db } = ctx.database;
    const count = async (where: ReturnType<typeof sql>) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from login_attempts where ${where}`.execute(db))
          .rows[0]?.n,
      );
    const old = () => count(sql`attempted_at < now() - interval '12 hours'`);
    // Before: kept for good, successes too (nothing read them again).
    await sql`insert into login_attempts (username_key, address, succeeded, attempted_at)
      select 'old-' || n, '198.51.100.7', n % 2 = 0, now() - interval '1 day'
      from generate_series(1, 150) n`.execute(db);
    const before = await old();
    expect(before).toBeGreaterThanOrEqual(150);
    expect((await login('manager', 'wrong-guess', '198.51.100.8')).statusCode).toBe(401);
    expect(await old()).toBe(before - 100);
    // The failure just made is inside the window: it stays, and still counts.
    expect(await count(sql`address = '198.51.100.8' and not succeeded`)).toBe(1);
    expect((await login('manager', PASSWORD, '198.51.100.9')).statusCode).toBe(200);
    expect(await old()).toBe(Math.max(before - 200, 0));
  });
});
