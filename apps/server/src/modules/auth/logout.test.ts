import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { CLOCK_TOLERANCE_SECONDS } from '../../lib/tokens';
import { signAdminToken } from './session-token.test-support';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

const logout = (token?: string) =>
  app.inject({ method: 'POST', url: '/auth/api/v1/logout', headers: token ? bearer(token) : {} });
const signIn = async (username: string) => (await ctx.login(username)).json().token as string;
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

describe('POST /auth/api/v1/logout', () => {
  it('refuses the signed-out token at once; another session of the same user goes on; audited', async () => {
    const signedOut = await signIn('admin');
    const other = await signIn('admin');
    const users = (token: string) => app.inject({ url: '/auth/api/v1/users', headers: bearer(token) });
    expect((await users(signedOut)).statusCode).toBe(200);

    const res = await logout(signedOut);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    // Before: the token went on working until it expired, up to SESSION_TTL_SECONDS later.
    const refused = await users(signedOut);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await logout(signedOut)).statusCode).toBe(401);
    expect((await users(other)).statusCode).toBe(200);
    expect((await users(ctx.tokens.ADMIN)).statusCode).toBe(200);

    const audit = await app.inject({
      url: '/api/v1/audit?targetType=auth&size=200&sort=executedAt,desc',
      headers: bearer(other),
    });
    const signOuts = (audit.json().content as { message: string }[]).filter((e) =>
      e.message.startsWith('Signed out'),
    );
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0]).toMatchObject({
      message: expect.stringMatching(/^Signed out from \S+$/),
      username: 'admin',
      targetType: 'auth',
      targetId: ctx.users.ADMIN,
    });
  });

  it('any role may sign out', async () => {
    const token = await signIn('viewer');
    expect((await logout(token)).statusCode).toBe(204);
    expect((await app.inject({ url: '/api/v1/audit', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('without a token: 401 NO_TOKEN, nothing audited', async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(db);
    const res = await logout();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'NO_TOKEN' });
    const after = await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('keeps a revocation until the token expires; a sign-out deletes the ones past it', async () => {
    const stale = '00000000-0000-4000-8000-000000000001';
    await db
      .insertInto('revoked_sessions')
      .values({ jti: stale, expires_at: new Date(Date.now() - 60_000) })
      .execute();
    const token = await signIn('manager');
    const { jti, exp } = claimsOf(token);
    expect((await logout(token)).statusCode).toBe(204);

    const rows = await db
      .selectFrom('revoked_sessions')
      .selectAll()
      .where('jti', 'in', [stale, jti])
      .execute();
    // As long as the token is accepted: its exp plus the clock tolerance.
    expect(rows).toEqual([{ jti, expires_at: new Date((exp + CLOCK_TOLERANCE_SECONDS) * 1000) }]);
  });

  it('a token signed out in the minute after its exp, which is still accepted, is refused from then on', async () => {
    const now = Math.floor(Date.now() / 1000);
    const late = await signAdminToken(ctx.users.ADMIN, {
      jti: crypto.randomUUID(),
      iat: now - 60,
      exp: now - 20,
    });
    const audit = () => app.inject({ url: '/api/v1/audit', headers: bearer(late) });
    expect((await audit()).statusCode).toBe(200);
    expect((await logout(late)).statusCode).toBe(204);
    // Before: its revocation, kept until exp, was pruned by its own sign-out, and the token still worked.
    expect((await audit()).statusCode).toBe(401);
    // Another sign-out's pruning leaves it refused.
    expect((await logout(await signIn('viewer'))).statusCode).toBe(204);
    expect((await audit()).statusCode).toBe(401);
  });

  it('a token issued before sign-outs were recorded (no jti) signs out but stays valid until it expires', async () => {
    const now = Math.floor(Date.now() / 1000);
    const legacy = await signAdminToken(ctx.users.ADMIN, { iat: now, exp: now + 3600 });
    expect((await logout(legacy)).statusCode).toBe(204);
    expect((await app.inject({ url: '/api/v1/audit', headers: bearer(legacy) })).statusCode).toBe(200);
  });

  it('each sign-in is its own session: tokens carry distinct ids', async () => {
    const [a, b] = [claimsOf(await signIn('viewer')), claimsOf(await signIn('viewer'))];
    expect(a.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.jti).not.toBe(a.jti);
  });
});
