import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { lockWaits } from '../pos/pos.fixtures';
import { getSetting, lockSettings, putSetting } from './settings.repository';

const ctx = await createTestContext();
const { app } = ctx;

const read = (token = ctx.tokens.VIEWER) => app.inject({ url: '/api/v1/settings', headers: bearer(token) });
const save = (payload: unknown, token = ctx.tokens.ADMIN) =>
  app.inject({ method: 'POST', url: '/api/v1/settings', headers: bearer(token), payload: payload as object });

describe('settings API', () => {
  it('starts with nothing configured, readable by every role', async () => {
    for (const token of Object.values(ctx.tokens)) {
      const res = await read(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        holds: { ttl_minutes: null },
        cards: { limit_per_account: null },
        points: { expiry_days: null, pending_days: null },
        programme: { currency: 'EUR', timezone: 'UTC' },
      });
    }
  });

  it('an ADMIN saves both values; getSetting reads them back', async () => {
    const res = await save({ holds: { ttl_minutes: 60 }, cards: { limit_per_account: 3 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      holds: { ttl_minutes: 60 },
      cards: { limit_per_account: 3 },
      points: { expiry_days: null, pending_days: null },
      programme: { currency: 'EUR', timezone: 'UTC' },
    });
    expect((await read()).json()).toEqual(res.json());
    expect(await getSetting(ctx.database.db, 'holds.ttl_minutes')).toBe(60);
    expect(await getSetting(ctx.database.db, 'cards.limit_per_account')).toBe(3);
  });

  it('changes only the values sent; 0 is a value and null clears one', async () => {
    expect((await save({ holds: { ttl_minutes: 1 } })).json()).toEqual({
      holds: { ttl_minutes: 1 },
      cards: { limit_per_account: 3 },
      points: { expiry_days: null, pending_days: null },
      programme: { currency: 'EUR', timezone: 'UTC' },
    });
    expect((await save({ cards: { limit_per_account: 0 } })).json().cards.limit_per_account).toBe(0);
    expect((await save({ cards: {} })).json().cards.limit_per_account).toBe(0);
    expect((await save({ cards: { limit_per_account: null } })).json()).toEqual({
      holds: { ttl_minutes: 1 },
      cards: { limit_per_account: null },
      points: { expiry_days: null, pending_days: null },
      programme: { currency: 'EUR', timezone: 'UTC' },
    });
    await save({ holds: { ttl_minutes: 15 } });
  });

  it.each([
    [{ holds: { ttl_minutes: -1 } }, 'Holds TTL must be at least 1'],
    // A hold would lapse as it was made: "active" to the till, and never capturable.
    [{ holds: { ttl_minutes: 0 } }, 'Holds TTL must be at least 1'],
    [{ cards: { limit_per_account: -1 } }, 'Cards per Account must be 0 or more'],
    [{ holds: { ttl_minutes: 1.5 } }, 'must be a whole number'],
    [{ cards: { limit_per_account: '3' } }, 'cards.limit_per_account'],
    [{ cards: { limit_per_account: 2_000_000 } }, 'must be at most 1000000'],
    [{ points: { expiry_days: -1 } }, 'Expiry (days) must be 0 or more'],
    [{ points: { expiry_days: 0.5 } }, 'Expiry (days) must be a whole number'],
    [{ points: { pending_days: -3 } }, 'Pending period (days) must be 0 or more'],
    [{ points: { pending_days: 2.25 } }, 'points.pending_days'],
  ])('rejects %j with a 400', async (payload, message) => {
    const res = await save(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('the points group: only the values sent change, null clears, 0 is a value, audited', async () => {
    const saved = await save({ points: { expiry_days: 365 } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().points).toEqual({ expiry_days: 365, pending_days: null });
    expect((await save({ points: { pending_days: 0 } })).json().points).toEqual({
      expiry_days: 365,
      pending_days: 0,
    });
    expect((await save({ holds: { ttl_minutes: 15 } })).json().points).toEqual({
      expiry_days: 365,
      pending_days: 0,
    });
    expect((await save({ points: { expiry_days: null } })).json().points).toEqual({
      expiry_days: null,
      pending_days: 0,
    });
    expect(await getSetting(ctx.database.db, 'points.pending_days')).toBe(0);
    const audit = await app.inject({
      url: '/api/v1/audit?targetType=settings&size=1',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0]).toMatchObject({
      message: 'Updated settings: points.expiry_days = not set',
      source: { points: { expiry_days: 365 } },
      dest: { points: { expiry_days: null } },
    });
    expect((await save({ points: { expiry_days: 30 } }, ctx.tokens.MANAGER)).statusCode).toBe(403);
    await save({ points: { pending_days: null } });
  });

  it('only an ADMIN may change settings', async () => {
    for (const role of ['MANAGER', 'VIEWER'] as const) {
      const res = await save({ holds: { ttl_minutes: 99 } }, ctx.tokens[role]);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await read()).json().holds.ttl_minutes).toBe(15);
  });

  it('needs a session', async () => {
    expect((await app.inject({ url: '/api/v1/settings' })).statusCode).toBe(401);
  });

  it('audits each change with the settings before and after', async () => {
    await save({ cards: { limit_per_account: 5 } });
    const res = await app.inject({
      url: '/api/v1/audit?targetType=settings&size=1',
      headers: bearer(ctx.tokens.ADMIN),
    });
    const [entry] = res.json().content;
    expect(entry).toMatchObject({
      username: 'admin',
      targetType: 'settings',
      message: 'Updated settings: cards.limit_per_account = 5',
      source: { holds: { ttl_minutes: 15 }, cards: { limit_per_account: null } },
      dest: { holds: { ttl_minutes: 15 }, cards: { limit_per_account: 5 } },
    });
  });

  it('an empty change writes nothing', async () => {
    const before = (
      await app.inject({ url: '/api/v1/audit?targetType=settings', headers: bearer(ctx.tokens.ADMIN) })
    ).json().totalElements;
    expect((await save({})).statusCode).toBe(200);
    const after = (
      await app.inject({ url: '/api/v1/audit?targetType=settings', headers: bearer(ctx.tokens.ADMIN) })
    ).json().totalElements;
    expect(after).toBe(before);
  });
  it('programme.currency defaults to EUR; an ADMIN sets an ISO 4217 code, audited', async () => {
    const res = await save({ programme: { currency: ' usd ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().programme).toEqual({ currency: 'USD', timezone: 'UTC' });
    expect((await read()).json().programme).toEqual({ currency: 'USD', timezone: 'UTC' });
    const audit = await app.inject({
      url: '/api/v1/audit?targetType=settings&size=1',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0]).toMatchObject({
      message: 'Updated settings: programme.currency = USD',
      source: { programme: { currency: 'EUR', timezone: 'UTC' } },
      dest: { programme: { currency: 'USD', timezone: 'UTC' } },
    });
    // The numbers are untouched by a currency change, and the other way round.
    expect((await save({ holds: { ttl_minutes: 20 } })).json().programme).toEqual({
      currency: 'USD',
      timezone: 'UTC',
    });
    expect((await save({ programme: { currency: 'EUR' } })).json().holds).toEqual({ ttl_minutes: 20 });
  });

  it.each([['EURO'], ['E1R'], ['XYZ'], [''], [null], [978]])(
    'refuses currency %j with a 400 and changes nothing',
    async (currency) => {
      const before = (await read()).json();
      const res = await save({ holds: { ttl_minutes: 99 }, programme: { currency } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().details[0].field).toContain('programme.currency');
      expect((await read()).json()).toEqual(before);
    },
  );

  it('only an ADMIN may change the currency', async () => {
    for (const role of ['MANAGER', 'VIEWER'] as const) {
      const res = await save({ programme: { currency: 'GBP' } }, ctx.tokens[role]);
      expect(res.statusCode).toBe(403);
    }
    expect((await read()).json().programme.currency).not.toBe('GBP');
  });

  it('programme.timezone defaults to UTC; an ADMIN sets an IANA zone, audited; only the zone changes', async () => {
    const res = await save({ programme: { timezone: 'Europe/Berlin' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().programme).toMatchObject({ timezone: 'Europe/Berlin' });
    const audit = await app.inject({
      url: '/api/v1/audit?targetType=settings&size=1',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0].message).toBe('Updated settings: programme.timezone = Europe/Berlin');
    expect((await save({ programme: { timezone: 'UTC' } })).json().programme.timezone).toBe('UTC');
  });

  it.each([
    [{ holds: { ttlMinutes: 30 } }, 'holds'],
    [{ hold: { ttl_minutes: 30 } }, 'hold'],
    [{ points: { expiry_days: 30, expiryDays: 30 } }, 'points'],
  ])('refuses unknown keys in %j with a 400 naming where, and changes nothing', async (payload, field) => {
    const before = (await read()).json();
    const res = await save(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json().details)).toContain(field);
    expect((await read()).json()).toEqual(before);
  });

  it.each([['Mars/Olympus'], ['Europe/Berlin; drop table'], [''], [null], [1]])(
    'refuses time zone %j with a 400 naming the field, and changes nothing',
    async (timezone) => {
      const before = (await read()).json();
      const res = await save({ programme: { timezone } });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toContain('programme.timezone');
      expect((await read()).json()).toEqual(before);
    },
  );

  // PostgreSQL only: PGlite runs one transaction at a time, so saves cannot overlap there.
  it.runIf(ctx.database.kind === 'postgres')(
    'a first save of one key waits for a first save of another, and audits and answers it',
    async () => {
      const { db } = ctx.database;
      // No rows: nothing a row lock could hold. (Last in the file: it empties the settings the tests above set.)
      await sql`delete from settings`.execute(db);
      const { waiting } = await db.transaction().execute(async (trx) => {
        // Another admin's save, between its lock and its commit.
        await lockSettings(trx);
        await putSetting(trx, 'holds.ttl_minutes', 45);
        const waiting = save({ cards: { limit_per_account: 4 } });
        let answered = false;
        void waiting.finally(() => {
          answered = true;
        });
        // Either the second save waits for the first, or (the defect) it answered without waiting.
        await vi.waitFor(async () => answered || expect(await lockWaits(db)).toBe(1), {
          timeout: 60_000,
          interval: 10,
        });
        // Not awaited here: it ends after this transaction commits.
        return { waiting };
      });
      const answer = await waiting;
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ holds: { ttl_minutes: 45 }, cards: { limit_per_account: 4 } });
      const audit = await app.inject({
        url: '/api/v1/audit?targetType=settings&size=1',
        headers: bearer(ctx.tokens.ADMIN),
      });
      const entry = audit.json().content[0];
      expect(entry.message).toBe('Updated settings: cards.limit_per_account = 4');
      expect(entry.source).toMatchObject({ holds: { ttl_minutes: 45 }, cards: { limit_per_account: null } });
      expect(entry.dest).toMatchObject({ holds: { ttl_minutes: 45 }, cards: { limit_per_account: 4 } });
    },
  );
});
