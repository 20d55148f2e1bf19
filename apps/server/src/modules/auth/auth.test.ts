import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { dummyVerificationCount } from '../../lib/password';
import { deletedWhileWaiting } from '../pos/pos.fixtures';
import { signAdminToken } from './session-token.test-support';

const ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_USERNAME: '3' });
const { app } = ctx;

describe('POST /auth/api/v1/login', () => {
  it('returns a token and its lifetime, and records lastLogin', async () => {
    const res = await ctx.login('admin');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.expiresInSeconds).toBe(28800);
    expect(body.token.split('.')).toHaveLength(3);

    const users = await app.inject({ url: '/auth/api/v1/users?search=admin', headers: bearer(body.token) });
    expect(users.json().content[0].lastLogin).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('accepts the username in any letter case', async () => {
    expect((await ctx.login('ADMIN')).statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await ctx.login('viewer', 'not-the-password');
    const unknown = await ctx.login('nobody-here', 'whatever-password');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        status: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password',
      });
    }
  });

  it('runs one real Argon2 verification against a dummy hash for an unknown user, none for a known one', async () => {
    // The timing itself (unknown vs known user) is measured by bench/login-timing.ts, not asserted here.
    const attempt = async (username: string) => {
      // Keep the rate limiter out of it: a 429 answers before any verification.
      await ctx.database.db.deleteFrom('login_attempts').execute();
      const before = dummyVerificationCount();
      const res = await ctx.login(username, 'bad-password-x');
      expect(res.statusCode).toBe(401);
      return dummyVerificationCount() - before;
    };
    expect(await attempt('ghost-user')).toBe(1);
    expect(await attempt('manager')).toBe(0);
    expect(await attempt('ghost-other')).toBe(1);
  });

  it('rejects blank fields with a 400 envelope naming the field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      payload: { username: '  ', password: '' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
  });

  it('limits failed attempts per username with a 429 and a clear message', async () => {
    await ctx.database.db.deleteFrom('login_attempts').execute();
    for (let i = 0; i < 3; i++)
      expect((await ctx.login('limited-user', 'wrong-password')).statusCode).toBe(401);
    const blocked = await ctx.login('limited-user', 'wrong-password');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
  });

  it('a 429 says when to try again: Retry-After in seconds, until the window frees, and the message agrees', async () => {
    await ctx.database.db.deleteFrom('login_attempts').execute();
    for (let i = 0; i < 3; i++) await ctx.login('waiting-user', 'wrong-password');
    const full = await ctx.login('waiting-user', 'wrong-password');
    expect(full.statusCode).toBe(429);
    const window = 900; // LOGIN_WINDOW_SECONDS's default
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(window - 60);
    expect(Number(full.headers['retry-after'])).toBeLessThanOrEqual(window);
    expect(full.json().message).toContain('try again in 15 minutes');
    // The failures made 13½ minutes ago leave the window in 1½ minutes: the wait is that, not the window.
    await ctx.database.db
      .updateTable('login_attempts')
      .set({ attempted_at: new Date(Date.now() - (window - 90) * 1000) })
      .execute();
    const soon = await ctx.login('waiting-user', 'wrong-password');
    expect(soon.statusCode).toBe(429);
    const seconds = Number(soon.headers['retry-after']);
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(90);
    expect(soon.json().message).toContain('try again in 2 minutes');
  });

  it('limits a real user too, even with the right password, until the window passes', async () => {
    await ctx.database.db.deleteFrom('login_attempts').execute();
    for (let i = 0; i < 3; i++) await ctx.login('manager', 'wrong-password');
    expect((await ctx.login('manager', PASSWORD)).statusCode).toBe(429);
    await ctx.database.db
      .updateTable('login_attempts')
      .set({ attempted_at: new Date(Date.now() - 3_600_000) })
      .execute();
    expect((await ctx.login('manager', PASSWORD)).statusCode).toBe(200);
  });

  it('audits success and failure without the password', async () => {
    await ctx.login('viewer', 'a-secret-guess');
    const res = await app.inject({
      url: '/api/v1/audit?targetType=auth&size=200',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const entries = res.json().content as {
      message: string;
      username: string;
      source: unknown;
      dest: unknown;
    }[];
    expect(entries.some((e) => e.message.startsWith("Failed sign-in for 'viewer'"))).toBe(true);
    expect(entries.some((e) => e.message.startsWith('Signed in') && e.username === 'admin')).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('a-secret-guess');
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it('keeps a sign-in whose username names no user out of the audit and the throttle: it may be a password', async () => {
    const typedInTheWrongField = `${PASSWORD}-not-a-username`;
    expect((await ctx.login(typedInTheWrongField, 'anything-at-all')).statusCode).toBe(401);
    const res = await app.inject({
      url: '/api/v1/audit?targetType=auth&size=200&sort=executedAt,desc',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const entries = res.json().content as {
      message: string;
      username: string | null;
      targetId: string | null;
    }[];
    expect(entries[0]).toMatchObject({
      message: expect.stringMatching(/^Failed sign-in for an unknown username from /),
      username: null,
      targetId: null,
    });
    expect(JSON.stringify(entries)).not.toContain(typedInTheWrongField);
    // Nor does the throttle keep it: its attempts are counted under a hash of the username.
    const attempts = await ctx.database.db.selectFrom('login_attempts').selectAll().execute();
    expect(attempts.length).toBeGreaterThan(0);
    expect(JSON.stringify(attempts).toLowerCase()).not.toContain(typedInTheWrongField.toLowerCase());
  });
});

describe('session tokens', () => {
  it('without a token: 401 NO_TOKEN', async () => {
    const res = await app.inject({ url: '/auth/api/v1/users' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'NO_TOKEN', message: 'Authentication required' });
  });

  it('a 401 names the Bearer scheme (RFC 6750), invalid_token when a token was refused; never Basic', async () => {
    const none = await app.inject({ url: '/api/v1/accounts' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    for (const token of ['abc.def', `${ctx.tokens.ADMIN}x`]) {
      const refused = await app.inject({ url: '/api/v1/accounts', headers: bearer(token) });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    // Signed in: no challenge.
    const ok = await app.inject({ url: '/api/v1/accounts', headers: bearer(ctx.tokens.VIEWER) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['www-authenticate']).toBeUndefined();
  });

  it('the strings null and undefined count as no token', async () => {
    for (const token of ['null', 'undefined']) {
      expect((await app.inject({ url: '/api/v1/audit', headers: bearer(token) })).json().code).toBe(
        'NO_TOKEN',
      );
    }
  });

  it('the scheme in any case and one or more spaces before the token (RFC 6750: "Bearer" 1*SP token)', async () => {
    for (const authorization of [`bearer ${ctx.tokens.ADMIN}`, `Bearer  ${ctx.tokens.ADMIN}`]) {
      const res = await app.inject({ url: '/api/v1/audit', headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 10)).toBe(200);
    }
    // Text after the token is not part of it: the header is malformed, not a session.
    const trailing = await app.inject({
      url: '/api/v1/audit',
      headers: { authorization: `Bearer ${ctx.tokens.ADMIN} extra` },
    });
    expect(trailing.json()).toMatchObject({ status: 401, code: 'NO_TOKEN' });
  });

  it('a tampered token: 401 UNAUTHORIZED', async () => {
    const [h, p, s] = ctx.tokens.ADMIN.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, role: 'ADMIN', sub: ctx.users.VIEWER })).toString(
      'base64url',
    );
    const res = await app.inject({ url: '/auth/api/v1/users', headers: bearer(`${h}.${forged}.${s}`) });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  });

  it('garbage: 401 UNAUTHORIZED', async () => {
    expect((await app.inject({ url: '/api/v1/audit', headers: bearer('abc.def') })).json().code).toBe(
      'UNAUTHORIZED',
    );
  });

  it('an expired token: 401 TOKEN_EXPIRED', async () => {
    const expired = await signAdminToken(ctx.users.ADMIN, {
      iat: Math.floor(Date.now() / 1000) - 7200,
      exp: Math.floor(Date.now() / 1000) - 3600,
    });
    const res = await app.inject({ url: '/api/v1/audit', headers: bearer(expired) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'TOKEN_EXPIRED',
      message: 'Token expired. Please log in again.',
    });
  });

  it('a token without an expiry, or older than the session lifetime: 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: { iat?: number; exp?: number }) => signAdminToken(ctx.users.ADMIN, claims);
    // Before: each of these was a session that never ended (or ended a year later).
    const forever = await sign({ iat: now });
    const noIssuedAt = await sign({ exp: now + 3600 });
    const yearLong = await sign({ iat: now - 9 * 3600, exp: now + 365 * 86400 });
    for (const token of [forever, noIssuedAt, yearLong]) {
      const res = await app.inject({ url: '/api/v1/audit', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
    }
    // Another server's clock a few seconds ahead: its fresh token is still good here.
    for (const iat of [now, now + 20]) {
      const fresh = await sign({ iat, exp: iat + 3600 });
      expect((await app.inject({ url: '/api/v1/audit', headers: bearer(fresh) })).statusCode).toBe(200);
    }
  });

  // PostgreSQL only: the deletion commits while the sign-in waits for the user's row (PGlite runs one at a time).
  it.runIf(ctx.database.kind === 'postgres')(
    'a user deleted while signing in is not signed in, and no sign-in is audited',
    async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/auth/api/v1/users',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { username: 'racing', password: PASSWORD, role: 'VIEWER' },
      });
      const id = created.json().id as string;
      // The password checked, the sign-in waits to record itself; meanwhile the user is deleted.
      const res = await deletedWhileWaiting(ctx.database.db, { table: 'users', id }, () =>
        ctx.login('racing'),
      );
      // Before: 200 with a token that never worked, and "Signed in" after the deletion in the log.
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().code).toBe('INVALID_CREDENTIALS');
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from audit_log
        where target_id = ${id} and message like 'Signed in%'`.execute(ctx.database.db);
      expect(rows[0]!.n).toBe(0);
    },
  );

  it("a deleted user's token stops working at once", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/users',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { username: 'short-lived', password: PASSWORD, role: 'ADMIN' },
    });
    const token = (await ctx.login('short-lived')).json().token;
    await app.inject({
      method: 'DELETE',
      url: `/auth/api/v1/users/${created.json().id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect((await app.inject({ url: '/api/v1/audit', headers: bearer(token) })).json().code).toBe(
      'UNAUTHORIZED',
    );
  });
});
