import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { isLuhnValid } from './card-number';

const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

const newAccount = async (clientId: string) =>
  (
    await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { clientId },
    })
  ).json().id as string;
const issue = (accountId: string, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: `/api/v1/cards/issue/${accountId}`, headers: bearer(token) });
const block = (id: string, payload?: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/cards/${id}/block`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const reissue = (id: string, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: `/api/v1/cards/${id}/reissue`, headers: bearer(token) });
const list = (query = '') => app.inject({ url: `/api/v1/cards${query}`, headers: bearer(ctx.tokens.VIEWER) });
const setLimit = (limit: number | null) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/settings',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { cards: { limit_per_account: limit } },
  });
const audit = async (cardId: string) =>
  (
    await app.inject({
      url: `/api/v1/audit?targetType=card&targetId=${cardId}`,
      headers: bearer(ctx.tokens.ADMIN),
    })
  ).json().content;

const accountId = await newAccount('CARD-OWNER');

describe('issuing cards', () => {
  it('issues an active card with a random 16-digit Luhn number', async () => {
    const res = await issue(accountId);
    expect(res.statusCode).toBe(201);
    const card = res.json();
    expect(card).toMatchObject({
      accountId,
      status: 'active',
      blockedAt: null,
      blockedReason: null,
      replacedBy: null,
    });
    expect(card.number).toMatch(/^\d{16}$/);
    expect(isLuhnValid(card.number)).toBe(true);
    expect(card.issuedAt).toBe(card.createdAt);
    const account = await app.inject({
      url: `/api/v1/accounts/${accountId}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(account.json().activeCardNumber).toBe(card.number);
    expect(await audit(card.id)).toEqual([
      expect.objectContaining({
        username: 'manager',
        message: `Issued card ${card.number}`,
        source: null,
        dest: card,
      }),
    ]);
  });

  it('numbers of consecutive issues are not sequential', async () => {
    const other = await newAccount('SEQ');
    const numbers: bigint[] = [];
    for (let i = 0; i < 5; i++) numbers.push(BigInt((await issue(other)).json().number));
    const steps = numbers.slice(1).map((n, i) => n - numbers[i]!);
    expect(steps.every((d) => d > 1000n || d < -1000n)).toBe(true);
  });

  it('an unknown account is a 404, a malformed id a 400', async () => {
    const res = await issue('00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ACCOUNT_NOT_FOUND');
    expect((await issue('42')).statusCode).toBe(400);
  });

  it('refuses a card beyond the limit of non-blocked cards; blocked cards do not count', async () => {
    const owner = await newAccount('LIMITED');
    await setLimit(2);
    const first = (await issue(owner)).json();
    expect((await issue(owner)).statusCode).toBe(201);
    const over = await issue(owner);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'CARD_LIMIT_EXCEEDED' });
    await block(first.id, { reason: 'Lost' });
    expect((await issue(owner)).statusCode).toBe(201);
    await setLimit(null);
    expect((await issue(owner)).statusCode).toBe(201);
  });

  it('pending cards count towards the limit', async () => {
    const owner = await newAccount('PENDING-LIMIT');
    await db
      .insertInto('cards')
      .values({ number: '5000000000000009', account_id: owner, status: 'pending' })
      .execute();
    await setLimit(1);
    expect((await issue(owner)).json().code).toBe('CARD_LIMIT_EXCEEDED');
    await setLimit(null);
  });

  it('two simultaneous issues at the limit: exactly one 201 and one 409', async () => {
    const owner = await newAccount('RACE');
    await setLimit(1);
    const results = await Promise.all([issue(owner), issue(owner)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('CARD_LIMIT_EXCEEDED');
    const cards = await db.selectFrom('cards').select('id').where('account_id', '=', owner).execute();
    expect(cards).toHaveLength(1);
    await setLimit(null);
  });
});

describe('blocking cards', () => {
  it('blocks an active card with a trimmed reason', async () => {
    const card = (await issue(accountId)).json();
    const res = await block(card.id, { reason: '  Stolen wallet ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: card.id, status: 'blocked', blockedReason: 'Stolen wallet' });
    expect(res.json().blockedAt).toMatch(/Z$/);
    const [entry] = await audit(card.id);
    expect(entry).toMatchObject({
      message: `Blocked card ${card.number}: Stolen wallet`,
      source: { status: 'active', blockedReason: null },
      dest: { status: 'blocked', blockedReason: 'Stolen wallet' },
    });
  });

  it("defaults the reason to 'Blocked by admin' (no body, empty body or blank reason)", async () => {
    for (const payload of [undefined, {}, { reason: '   ' }, { reason: null }]) {
      const card = (await issue(accountId)).json();
      const res = await block(card.id, payload);
      expect(res.statusCode).toBe(200);
      expect(res.json().blockedReason).toBe('Blocked by admin');
    }
  });

  it('a blocked or pending card cannot be blocked (409); unknown is 404; a long reason 400', async () => {
    const card = (await issue(accountId)).json();
    await block(card.id);
    const again = await block(card.id, { reason: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CARD_NOT_ACTIVE', message: 'Card is already blocked' });
    const [pending] = await db
      .insertInto('cards')
      .values({ number: '5000000000000017', account_id: accountId, status: 'pending' })
      .returning('id')
      .execute();
    const res = await block(pending!.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CARD_NOT_ACTIVE');
    const unknown = await block('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CARD_NOT_FOUND');
    expect((await block(card.id, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
  });
});

describe('reissuing cards', () => {
  it('replaces an active card: the old one is blocked naming the new number', async () => {
    const owner = await newAccount('REISSUE-ACTIVE');
    await setLimit(1);
    const old = (await issue(owner)).json();
    const res = await reissue(old.id);
    expect(res.statusCode).toBe(201);
    const fresh = res.json();
    expect(fresh).toMatchObject({ accountId: owner, status: 'active', replacedBy: null });
    expect(fresh.number).not.toBe(old.number);
    expect(isLuhnValid(fresh.number)).toBe(true);
    const oldNow = (await list(`?search=${old.number}`)).json().content[0];
    expect(oldNow).toMatchObject({
      status: 'blocked',
      blockedReason: `Reissued as card ${fresh.number}`,
      replacedBy: fresh.id,
    });
    const [oldEntry] = await audit(old.id);
    expect(oldEntry).toMatchObject({
      message: `Reissued card ${old.number} as ${fresh.number}`,
      source: { status: 'active' },
      dest: { status: 'blocked', replacedBy: fresh.id },
    });
    const [newEntry] = await audit(fresh.id);
    expect(newEntry).toMatchObject({
      message: `Issued card ${fresh.number} (reissue of ${old.number})`,
      source: null,
      dest: fresh,
    });
    await setLimit(null);
  });

  it('replaces a blocked card, keeping its reason; the new card counts against the limit', async () => {
    const owner = await newAccount('REISSUE-BLOCKED');
    const lost = (await issue(owner)).json();
    await block(lost.id, { reason: 'Lost' });
    const other = (await issue(owner)).json();
    await setLimit(1);
    const refused = await reissue(lost.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('CARD_LIMIT_EXCEEDED');
    await block(other.id);
    const res = await reissue(lost.id);
    expect(res.statusCode).toBe(201);
    const lostNow = (await list(`?search=${lost.number}`)).json().content[0];
    expect(lostNow).toMatchObject({ status: 'blocked', blockedReason: 'Lost', replacedBy: res.json().id });
    await setLimit(null);
  });

  it('a pending card cannot be reissued (409); an unknown card is a 404', async () => {
    const [pending] = await db
      .insertInto('cards')
      .values({ number: '5000000000000025', account_id: accountId, status: 'pending' })
      .returning('id')
      .execute();
    const res = await reissue(pending!.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CARD_NOT_REISSUABLE',
      message: 'A pending card cannot be reissued',
    });
    const unknown = await reissue('00000000-0000-4000-8000-000000000000');
    expect(unknown.json().code).toBe('CARD_NOT_FOUND');
  });
});

describe('listing cards and roles', () => {
  it('pages newest first with exact totals; filters by status and account; searches number prefix or account id', async () => {
    const owner = await newAccount('LISTED');
    const a = (await issue(owner)).json();
    const b = (await issue(owner)).json();
    await block(a.id);
    const all = (await list('?size=5')).json();
    const total = await db
      .selectFrom('cards')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(all.totalElements).toBe(total.n);
    expect(all.content[0].id).toBe(b.id);

    const blocked = (await list('?status=blocked&size=200')).json();
    const blockedRows = await db.selectFrom('cards').select('id').where('status', '=', 'blocked').execute();
    expect(blocked.totalElements).toBe(blockedRows.length);
    expect(blocked.content.every((c: { status: string }) => c.status === 'blocked')).toBe(true);

    const mine = (await list(`?accountId=${owner}`)).json();
    expect(mine.content.map((c: { id: string }) => c.id)).toEqual([b.id, a.id]);
    expect(mine.totalElements).toBe(2);
    expect((await list(`?search=${owner}`)).json().totalElements).toBe(2);
    expect(
      (await list(`?search=${owner}&status=active`)).json().content.map((c: { id: string }) => c.id),
    ).toEqual([b.id]);

    const prefix = b.number.slice(0, 6);
    const found = (await list(`?search=${prefix}`)).json();
    expect(found.content.map((c: { id: string }) => c.id)).toContain(b.id);
    expect(found.content.every((c: { number: string }) => c.number.startsWith(prefix))).toBe(true);
    expect((await list('?search=5000000000000')).json().totalElements).toBe(3);
    expect((await list('?search=%25')).json().totalElements).toBe(0);

    const byNumber = (await list('?sort=number,asc&size=200'))
      .json()
      .content.map((c: { number: string }) => c.number);
    expect(byNumber).toEqual([...byNumber].sort());
    for (const query of ['?status=lost', '?sort=status', '?accountId=x'])
      expect((await list(query)).statusCode).toBe(400);
  });

  it('finds a client ID exactly as it is written when JavaScript lowercases it otherwise (İ)', async () => {
    // 'İ'.toLowerCase() is 'i̇' (two code points); the database folds client IDs with its own lower().
    const owner = await newAccount('İZMİR-9');
    const card = (await issue(owner)).json();
    const found = (await list(`?search=${encodeURIComponent('İZMİR-9')}`)).json();
    expect(found).toMatchObject({ totalElements: 1, content: [{ id: card.id }] });
  });

  it("finds a client ID (exact, any case) and names each card's client", async () => {
    const owner = await newAccount('Client-77');
    const a = (await issue(owner)).json();
    const b = (await issue(owner)).json();
    const other = await newAccount('Client-7');
    const c = (await issue(other)).json();
    const ids = async (query: string) => (await list(query)).json().content.map((x: { id: string }) => x.id);
    expect(await ids('?search=client-77')).toEqual([b.id, a.id]);
    expect(await ids('?search=CLIENT-77')).toEqual([b.id, a.id]);
    expect((await list('?search=CLIENT-77')).json().totalElements).toBe(2);
    expect(await ids('?search=Client-7')).toEqual([c.id]);
    expect(await ids(`?search=Client-77&status=blocked`)).toEqual([]);
    await block(a.id);
    expect(await ids('?search=Client-77&status=blocked')).toEqual([a.id]);
    // Not a part of a client ID: that is the accounts list's search.
    expect((await list('?search=Client-')).json()).toMatchObject({ totalElements: 0, content: [] });
    const page = (await list(`?accountId=${owner}`)).json();
    expect(page.content.map((x: { clientId: string }) => x.clientId)).toEqual(['Client-77', 'Client-77']);
    expect((await list('?size=200')).json().content.every((x: { clientId: string }) => x.clientId)).toBe(
      true,
    );
  });

  it('a digit client ID finds its cards and the card numbers starting with it', async () => {
    const card = (await issue(await newAccount('FIND-BY-NUMBER'))).json();
    const prefix = card.number.slice(0, 5);
    const owner = await newAccount(prefix);
    const own = (await issue(owner)).json();
    const found = (await list(`?search=${prefix}&size=200`)).json();
    const ids = found.content.map((x: { id: string }) => x.id);
    expect(ids).toContain(card.id);
    expect(ids).toContain(own.id);
    const direct = await db
      .selectFrom('cards')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('number', 'like', `${prefix}%`), eb('account_id', '=', owner)]))
      .executeTakeFirstOrThrow();
    expect(found.totalElements).toBe(direct.n);
  });

  it('a VIEWER may read but not issue, block or reissue', async () => {
    const card = (await issue(accountId)).json();
    for (const res of [
      await issue(accountId, ctx.tokens.VIEWER),
      await block(card.id, {}, ctx.tokens.VIEWER),
      await reissue(card.id, ctx.tokens.VIEWER),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await list()).statusCode).toBe(200);
  });
});
