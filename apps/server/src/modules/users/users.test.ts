import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { lockWaits, whileLocked } from '../pos/pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;

const create = (token: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/auth/api/v1/users', headers: bearer(token), payload });

describe('users API', () => {
  it('an ADMIN creates a user who can sign in at once; the password is never returned', async () => {
    const res = await create(ctx.tokens.ADMIN, {
      username: 'jane',
      password: 'jane-password-1',
      email: 'jane@example.com',
      fullName: 'Jane Doe',
      role: 'MANAGER',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      username: 'jane',
      email: 'jane@example.com',
      fullName: 'Jane Doe',
      role: 'MANAGER',
      lastLogin: null,
    });
    expect(JSON.stringify(body)).not.toMatch(/password/i);
    expect((await ctx.login('jane', 'jane-password-1')).statusCode).toBe(200);
  });

  it('defaults the role to VIEWER and empty optional fields to null', async () => {
    const res = await create(ctx.tokens.ADMIN, {
      username: 'plain',
      password: 'plain-password',
      email: '',
      fullName: '',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: 'VIEWER', email: null, fullName: null });
  });

  it('a duplicate username (any case) is a 409 with a clear message', async () => {
    const res = await create(ctx.tokens.ADMIN, { username: 'JANE', password: 'another-password' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', message: "Username 'JANE' already exists" });
  });

  it('concurrent creates of one name: exactly one succeeds', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => create(ctx.tokens.ADMIN, { username: 'racer', password: 'racer-password' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ username: '  ', password: 'x-password' }, 'Username and password are required'],
    [{ username: 'bob', password: '   ' }, 'Username and password are required'],
    [{ username: 'bob', password: 'short' }, 'Password must be at least 8 characters'],
    [
      { username: 'bob', password: 'long-enough', email: 'not-an-email' },
      'Please enter a valid email address',
    ],
    [{ username: 'bob', password: 'long-enough', role: 'ROOT' }, 'role'],
  ])('rejects %j with a 400', async (payload, message) => {
    const res = await create(ctx.tokens.ADMIN, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json().details)).toContain(message);
  });

  it('lists with paging, search over username and email, role filter and sorting', async () => {
    const all = await app.inject({
      url: '/auth/api/v1/users?size=2&page=0&sort=username,asc',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body).toMatchObject({ page: 0, size: 2 });
    expect(body.content).toHaveLength(2);
    expect(body.totalElements).toBeGreaterThanOrEqual(5);
    expect(body.totalPages).toBe(Math.ceil(body.totalElements / 2));
    expect(body.content[0].username <= body.content[1].username).toBe(true);

    const byEmail = await app.inject({
      url: '/auth/api/v1/users?search=JANE@EXAMPLE',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(byEmail.json().content.map((u: { username: string }) => u.username)).toEqual(['jane']);

    const managers = await app.inject({
      url: '/auth/api/v1/users?role=MANAGER',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(new Set(managers.json().content.map((u: { role: string }) => u.role))).toEqual(
      new Set(['MANAGER']),
    );
  });

  it('sort=field without a direction sorts ascending, as sort=field,asc does', async () => {
    const usernames = async (sort: string) => {
      const res = await app.inject({
        url: `/auth/api/v1/users?size=200&sort=${sort}`,
        headers: bearer(ctx.tokens.ADMIN),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().content.map((u: { username: string }) => u.username) as string[];
    };
    const ascending = await usernames('username,asc');
    expect(ascending.length).toBeGreaterThanOrEqual(2);
    expect(await usernames('username')).toEqual(ascending);
    expect(await usernames('username,desc')).toEqual([...ascending].reverse());
  });

  it('rejects an unknown sort field or a page size over 200', async () => {
    for (const query of ['sort=password,asc', 'size=500', 'page=-1']) {
      const res = await app.inject({ url: `/auth/api/v1/users?${query}`, headers: bearer(ctx.tokens.ADMIN) });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('MANAGER and VIEWER may not list, create or delete users', async () => {
    for (const role of ['MANAGER', 'VIEWER'] as const) {
      const token = ctx.tokens[role];
      const list = await app.inject({ url: '/auth/api/v1/users', headers: bearer(token) });
      const made = await create(token, { username: `by-${role}`, password: 'some-password' });
      const gone = await app.inject({
        method: 'DELETE',
        url: `/auth/api/v1/users/${ctx.users.VIEWER}`,
        headers: bearer(token),
      });
      for (const res of [list, made, gone]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({
          code: 'FORBIDDEN',
          message: 'You do not have permission to perform this action',
        });
      }
    }
  });

  it('deletes a user; unknown ids are 404 and malformed ids 400', async () => {
    const made = await create(ctx.tokens.ADMIN, { username: 'to-delete', password: PASSWORD });
    const id = made.json().id;
    const res = await app.inject({
      method: 'DELETE',
      url: `/auth/api/v1/users/${id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(res.statusCode).toBe(204);
    const again = await app.inject({
      method: 'DELETE',
      url: `/auth/api/v1/users/${id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('USER_NOT_FOUND');
    const bad = await app.inject({
      method: 'DELETE',
      url: '/auth/api/v1/users/not-a-uuid',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('an admin cannot delete themself', async () => {
    const res = await app.inject({
      method: 'DELETE',
      url: `/auth/api/v1/users/${ctx.users.ADMIN}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CANNOT_DELETE_SELF');
  });

  it('two admins deleting each other at once leave exactly one ADMIN (LAST_ADMIN for the loser)', async () => {
    // Only a race can reach the last admin: one admin cannot delete themself, and deleting another
    // needs two. Leave exactly two admins, then let them delete each other concurrently.
    const second = await create(ctx.tokens.ADMIN, {
      username: 'second-admin',
      password: PASSWORD,
      role: 'ADMIN',
    });
    const secondToken = (await ctx.login('second-admin')).json().token;
    const del = (token: string, id: string) =>
      app.inject({ method: 'DELETE', url: `/auth/api/v1/users/${id}`, headers: bearer(token) });
    const [a, b] = await Promise.all([
      del(ctx.tokens.ADMIN, second.json().id),
      del(secondToken, ctx.users.ADMIN),
    ]);
    const outcomes = [a, b].map((r) => (r.statusCode === 204 ? 'deleted' : r.json().code));
    expect(outcomes.filter((o) => o === 'deleted')).toHaveLength(1);
    // The loser is refused either by the last-admin rule or because its own account is already gone.
    expect(outcomes.filter((o) => o === 'LAST_ADMIN' || o === 'UNAUTHORIZED')).toHaveLength(1);
    const admins = await ctx.database.db
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'ADMIN')
      .execute();
    expect(admins).toHaveLength(1);
    ctx.tokens.ADMIN = (await ctx.login(admins[0]!.username)).json().token;
  });

  it.runIf(ctx.database.kind === 'postgres')(
    'two deletes of one user at once: one 204 and one 404, one audit entry',
    async () => {
      const made = await create(ctx.tokens.ADMIN, { username: 'deleted-twice', password: PASSWORD });
      const id = made.json().id as string;
      const del = () =>
        app.inject({ method: 'DELETE', url: `/auth/api/v1/users/${id}`, headers: bearer(ctx.tokens.ADMIN) });
      // Both deletes read the user, then queue on its row: the first deletes it, the second finds it gone.
      const statuses = await whileLocked(ctx.database.db, { table: 'users', id }, async (unlock) => {
        const pending = [del(), del()];
        while ((await lockWaits(ctx.database.db)) < 2) await new Promise((r) => setImmediate(r));
        await unlock();
        return (await Promise.all(pending)).map((r) => r.statusCode);
      });
      expect(statuses.sort()).toEqual([204, 404]);
      const audit = await app.inject({
        url: `/api/v1/audit?targetType=user&targetId=${id}`,
        headers: bearer(ctx.tokens.ADMIN),
      });
      const messages = audit.json().content.map((e: { message: string }) => e.message);
      expect(messages.filter((m: string) => m.startsWith('Deleted user'))).toHaveLength(1);
    },
  );

  it('writes audit entries for create and delete, without secrets', async () => {
    const token = ctx.tokens.ADMIN;
    const admin = await app.inject({ url: '/auth/api/v1/users?role=ADMIN', headers: bearer(token) });
    const adminName = admin.json().content[0].username;
    const made = await create(token, { username: 'audited', password: 'audited-password', role: 'VIEWER' });
    const id = made.json().id;
    await app.inject({ method: 'DELETE', url: `/auth/api/v1/users/${id}`, headers: bearer(token) });
    const res = await app.inject({
      url: `/api/v1/audit?targetType=user&targetId=${id}`,
      headers: bearer(token),
    });
    const [deleted, created] = res.json().content;
    expect(created).toMatchObject({ username: adminName, targetType: 'user', targetId: id, source: null });
    expect(created.message).toBe("Created user 'audited' with role VIEWER");
    expect(created.dest).toMatchObject({ username: 'audited', role: 'VIEWER' });
    expect(deleted).toMatchObject({ message: "Deleted user 'audited'", dest: null });
    expect(deleted.source).toMatchObject({ id });
    expect(JSON.stringify(res.json())).not.toMatch(/audited-password|argon2|password/i);
  });
});
