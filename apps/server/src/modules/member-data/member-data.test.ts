import { erasedClientId } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, TEST_JWT_SECRET } from '../../../test/helper';
import { canonicalJson, requestHash } from '../../lib/request-hash';
import { verifyLedger } from '../ledger/verify-ledger';
import { createPosKey, createRuleset, till } from '../pos/pos.fixtures';
import { erasedClientSecret } from './erased-client-secret';
import { keyErasedClientIds } from './member-data.repository';

const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

const CLIENT_ID = 'Jane.Doe-4711';
const REASON = 'Goodwill for Jane Doe, phone 555-0199';
const as = (token: string) => ({ headers: bearer(token) });
const admin = as(ctx.tokens.ADMIN);

async function newMember(clientId: string, reason: string) {
  // Created under an Idempotency-Key, as the console creates it: the answer kept for its replay holds the ID.
  const account = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { ...bearer(ctx.tokens.ADMIN), 'idempotency-key': `${clientId}-create` },
      payload: { clientId },
    })
  ).json();
  const first = (
    await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin })
  ).json();
  await app.inject({
    method: 'POST',
    url: `/api/v1/cards/${first.id}/block`,
    ...admin,
    payload: { reason: 'Lost' },
  });
  await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin });
  for (const [points, key] of [
    [25, 'key-1'],
    [7.5, 'key-2'],
  ] as const) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: { ...bearer(ctx.tokens.MANAGER), 'idempotency-key': `${clientId}-${key}` },
      payload: { accountId: account.id, points, reason },
    });
    expect(res.statusCode).toBe(201);
  }
  return account.id as string;
}

const OTHER_REASON = 'Birthday bonus';
const memberId = await newMember(CLIENT_ID, REASON);
const bystanderId = await newMember('Bystander-1', OTHER_REASON);

/** The key secret of the test apps (`buildTestApp`'s POS_KEY_SECRET). */
const testKeySecret = erasedClientSecret({ jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) });

/**
 * Rows of erased_client_ids an ID's key matches: as migration 033 kept it (a SHA-256 anyone can compute) and
 * keyed with the test servers' secret (migration 041).
 */
async function keysOf(clientId: string): Promise<{ unkeyed: number; keyed: number }> {
  const found = await sql<{ unkeyed: number; keyed: number }>`
    select count(*) filter (where key = erased_client_key(${clientId}))::int as unkeyed,
      count(*) filter (where key = erased_client_key(${clientId}, ${testKeySecret}))::int as keyed
    from erased_client_ids`.execute(db);
  return found.rows[0]!;
}

/** Every place the member's data could remain, as text. */
async function traces(text: string): Promise<string[]> {
  const found = await sql<{ place: string }>`
    select 'accounts' as place from accounts where client_id ilike ${`%${text}%`}
    union all select 'cards' from cards where blocked_reason ilike ${`%${text}%`}
    union all select 'operations' from operations where meta::text ilike ${`%${text}%`}
    union all select 'audit' from audit_log
      where concat_ws(' ', message, source::text, dest::text) ilike ${`%${text}%`}
    union all select 'idempotency' from idempotency_keys where response::text ilike ${`%${text}%`}
    union all select 'events' from events where data::text ilike ${`%${text}%`}`.execute(db);
  const lists = ['/api/v1/accounts', '/api/v1/cards', '/api/v1/operations', '/api/v1/audit'];
  for (const list of lists) {
    const csv = (await app.inject({ url: `${list}?format=csv`, ...admin })).body;
    if (csv.includes(text)) found.rows.push({ place: `${list} csv` });
  }
  return found.rows.map((r) => r.place);
}

/**
 * Idempotency-Keys whose request was the creation of an account with this client ID: its request hash is a
 * plain SHA-256 of it, which a dump holder could test a guessed ID against.
 */
async function createRequestsOf(clientId: string): Promise<number> {
  const hash = requestHash('create-account', canonicalJson({ clientId }));
  const found = await sql<{ n: number }>`
    select count(*)::int as n from idempotency_keys where request_hash = ${hash}`.execute(db);
  return found.rows[0]!.n;
}

describe("GET /api/v1/accounts/{id}/export: a member's data", () => {
  it('account, cards, operations and receipts in one document', async () => {
    const res = await app.inject({ url: `/api/v1/accounts/${memberId}/export`, ...admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="member-[0-9a-f-]+-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const doc = res.json();
    expect(doc.account).toMatchObject({ id: memberId, clientId: CLIENT_ID, balance: 32.5 });
    expect(doc.cards).toHaveLength(2);
    expect(doc.cards.map((c: { status: string }) => c.status).sort()).toEqual(['active', 'blocked']);
    expect(doc.operations).toHaveLength(2);
    expect(doc.operations[0]).toMatchObject({ points: '7.50', meta: { reason: REASON } });
    expect(doc.receipts).toEqual([]);
    expect(doc.lots).toHaveLength(2);
  });

  it("the member's points lots, as GET /api/v1/accounts/{id}/lots lists them", async () => {
    const doc = (await app.inject({ url: `/api/v1/accounts/${memberId}/export`, ...admin })).json();
    const listed = (await app.inject({ url: `/api/v1/accounts/${memberId}/lots?size=200`, ...admin })).json();
    expect(listed.totalElements).toBe(2);
    expect(doc.lots).toEqual(listed.content);
    expect(doc.lots.map((l: { points: number }) => l.points)).toEqual([7.5, 25]);
  });

  it("includes the till's refused writes that named a card of the member without reaching the account", async () => {
    const apiKey = `member-till-${crypto.randomUUID()}`;
    const key = await app.inject({
      method: 'POST',
      url: '/api/v1/pos-keys',
      ...admin,
      payload: { name: 'Member data till', apiKey },
    });
    expect(key.statusCode, key.body).toBe(201);
    const account = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        ...admin,
        payload: { clientId: 'till-refused' },
      })
    ).json();
    const card = (
      await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin })
    ).json();
    // A receipt without lines is refused at the edge: recorded as failed with the card number only.
    const refused = await app.inject({
      method: 'POST',
      url: '/pos/api/v1/accruals',
      headers: { 'x-api-key': apiKey },
      payload: {
        operationId: `refused-${card.id}`,
        cardNumber: card.number,
        receipt: { receiptId: 'R', items: [] },
      },
    });
    expect(refused.statusCode).toBe(400);
    const doc = (await app.inject({ url: `/api/v1/accounts/${account.id}/export`, ...admin })).json();
    expect(doc.operations).toEqual([
      expect.objectContaining({
        status: 'failed',
        accountId: null,
        cardNumber: card.number,
        meta: expect.objectContaining({ error: 'VALIDATION_ERROR' }),
      }),
    ]);
  });

  it("leaves out a till's refused writes on a card number from before it was issued to the member", async () => {
    const apiKey = `member-till-${crypto.randomUUID()}`;
    const key = await app.inject({
      method: 'POST',
      url: '/api/v1/pos-keys',
      ...admin,
      payload: { name: 'Earlier till', apiKey },
    });
    expect(key.statusCode, key.body).toBe(201);
    const number = `5555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const attempt = (operationId: string) =>
      app.inject({
        method: 'POST',
        url: '/pos/api/v1/accruals',
        headers: { 'x-api-key': apiKey },
        payload: { operationId, cardNumber: number, receipt: { receiptId: 'R', items: [] } },
      });
    // Someone's attempts on the number while it was no one's card.
    expect((await attempt(`before-${number}`)).statusCode).toBe(400);
    const imported = await app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
      payload: `clientId,cardNumber\r\nlater-holder-${number},${number}\r\n`,
    });
    expect(imported.json(), imported.body).toMatchObject({ created: 1, failed: 0 });
    const after = await attempt(`after-${number}`);
    expect(after.statusCode).toBe(400);
    const holder = (
      await app.inject({ url: `/api/v1/accounts?search=later-holder-${number}`, ...admin })
    ).json().content[0];
    const doc = (await app.inject({ url: `/api/v1/accounts/${holder.id}/export`, ...admin })).json();
    expect(doc.operations.map((o: { meta: { operationId: string } }) => o.meta.operationId)).toEqual([
      `after-${number}`,
    ]);
  });

  it('administrators only; an unknown account is a 404', async () => {
    for (const role of ['MANAGER', 'VIEWER'] as const) {
      const res = await app.inject({ url: `/api/v1/accounts/${memberId}/export`, ...as(ctx.tokens[role]) });
      expect(res.statusCode).toBe(403);
    }
    const missing = await app.inject({ url: `/api/v1/accounts/${crypto.randomUUID()}/export`, ...admin });
    expect(missing.json()).toMatchObject({ status: 404, code: 'ACCOUNT_NOT_FOUND' });
  });

  it('is audited: who disclosed which account, and how much of it; no member values', async () => {
    const exports = async () =>
      (
        await app.inject({
          url: `/api/v1/audit?targetType=account&targetId=${memberId}&size=200`,
          ...admin,
        })
      )
        .json()
        .content.filter((e: { message: string }) => e.message.startsWith('Exported'));
    const before = (await exports()).length;
    const doc = (await app.inject({ url: `/api/v1/accounts/${memberId}/export`, ...admin })).json();
    await app.inject({ url: `/api/v1/accounts/${crypto.randomUUID()}/export`, ...admin });
    const after = await exports();
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({
      username: 'admin',
      message: 'Exported the member data of the account',
      targetType: 'account',
      targetId: memberId,
      source: null,
      dest: {
        cards: doc.cards.length,
        operations: doc.operations.length,
        receipts: doc.receipts.length,
        lots: doc.lots.length,
      },
    });
    expect(JSON.stringify(after[0])).not.toContain(CLIENT_ID);
  });
});

describe('POST /api/v1/accounts/{id}/erase', () => {
  const erase = (payload: unknown, token = ctx.tokens.ADMIN, id = memberId) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${id}/erase`,
      ...as(token),
      payload: payload as object,
    });

  it('refuses without the right confirmation, and changes nothing', async () => {
    const missing = await erase({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_ERROR');
    // Compared in the client ID's canonical form (a space at an end is not part of it), in its case.
    for (const confirm of ['jane.doe-4711', CLIENT_ID.slice(0, -1), `${CLIENT_ID}\u00a01`, 'Bystander-1']) {
      const wrong = await erase({ confirm });
      expect(wrong.json()).toMatchObject({ status: 400, code: 'ERASE_NOT_CONFIRMED' });
    }
    expect(await traces(CLIENT_ID)).toContain('accounts');
  });

  it('administrators only', async () => {
    expect((await erase({ confirm: CLIENT_ID }, ctx.tokens.MANAGER)).statusCode).toBe(403);
    expect((await erase({ confirm: CLIENT_ID }, ctx.tokens.VIEWER)).statusCode).toBe(403);
    expect((await erase({ confirm: 'x' }, ctx.tokens.ADMIN, crypto.randomUUID())).json().code).toBe(
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('removes the client ID and the reasons everywhere; points, dates and the ledger stay', async () => {
    expect(await traces(CLIENT_ID)).toEqual(
      expect.arrayContaining(['accounts', 'audit', 'idempotency', 'events']),
    );
    expect(await createRequestsOf(CLIENT_ID)).toBe(1);
    expect(await traces(REASON)).toEqual(
      expect.arrayContaining(['operations', 'audit', 'idempotency', 'events']),
    );
    const erasedCardEvents = () =>
      db
        .selectFrom('events')
        .select(sql<string>`data ->> 'number'`.as('number'))
        .where('type', '=', 'card.blocked')
        .where(sql<string>`data ->> 'accountId'`, '=', memberId)
        .where(sql<string>`data ->> 'blockedReason'`, '=', 'Erased')
        .execute();
    expect(await erasedCardEvents()).toEqual([]);
    const before = await db
      .selectFrom('operations')
      .select(['id', 'points', 'created_at', 'type', 'status'])
      .where('account_id', '=', memberId)
      .orderBy('id')
      .execute();

    const res = await erase({ confirm: CLIENT_ID });
    expect(res.statusCode).toBe(200);
    const erasedId = erasedClientId(memberId);
    expect(res.json()).toMatchObject({
      id: memberId,
      clientId: erasedId,
      balance: 32.5,
      activeCardNumber: null,
    });

    expect(await traces(CLIENT_ID)).toEqual([]);
    expect(await createRequestsOf(CLIENT_ID)).toBe(0);
    expect(await traces('Jane Doe')).toEqual([]);
    const cards = await db
      .selectFrom('cards')
      .select(['status', 'blocked_reason'])
      .where('account_id', '=', memberId)
      .execute();
    expect(cards).toEqual([
      { status: 'blocked', blocked_reason: 'Erased' },
      { status: 'blocked', blocked_reason: 'Erased' },
    ]);
    // The card that was still active is news to the systems following the events; the lost one is not.
    expect(await erasedCardEvents()).toHaveLength(1);
    const after = await db
      .selectFrom('operations')
      .select(['id', 'points', 'created_at', 'type', 'status'])
      .where('account_id', '=', memberId)
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);
    expect(await verifyLedger(db)).toMatchObject({
      differences: [],
      holdsCapturedTwice: [],
      overReturnedLines: [],
    });

    const [entry] = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', memberId)
      .orderBy('executed_at', 'desc')
      .limit(1)
      .execute();
    expect(entry).toMatchObject({
      username: 'admin',
      target_type: 'account',
      message: `Erased the member data of account ${erasedId}`,
    });
    expect(entry!.dest).toEqual({ clientId: erasedId, cardsBlocked: 2, reasonsCleared: 2 });
    const creation = await db
      .selectFrom('audit_log')
      .select(['message', 'dest'])
      .where('target_id', '=', memberId)
      .where('message', 'like', 'Created account%')
      .executeTakeFirstOrThrow();
    expect(creation.message).toBe(`Created account for client '${erasedId}'`);
    expect(creation.dest).toMatchObject({ id: memberId, clientId: erasedId });
  });

  it('a repeated erasure (the same request retried) answers the erased account and writes nothing', async () => {
    const erasedId = erasedClientId(memberId);
    const audits = () => db.selectFrom('audit_log').select('id').where('target_id', '=', memberId).execute();
    const events = () =>
      db.selectFrom('events').select('id').where(sql<string>`data ->> 'accountId'`, '=', memberId).execute();
    const [auditsBefore, eventsBefore] = [await audits(), await events()];
    // The console's request timed out after the erasure committed: the retry carries the old client ID,
    // which the account no longer has. It was refused as ERASE_NOT_CONFIRMED, as if nothing had happened.
    const retried = await erase({ confirm: CLIENT_ID });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ id: memberId, clientId: erasedId, balance: 32.5 });
    expect(await audits()).toEqual(auditsBefore);
    expect(await events()).toEqual(eventsBefore);
    // A confirmation is still needed for an account that is not erased.
    expect((await erase({ confirm: CLIENT_ID }, ctx.tokens.ADMIN, bystanderId)).json().code).toBe(
      'ERASE_NOT_CONFIRMED',
    );
  });

  it('the members file the member came from, imported again, does not bring them back', async () => {
    const file = `clientId,cardNumber,points\n${CLIENT_ID.toUpperCase()},,100\nNew-After-Erasure,,5\n`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts?skipInvalid=true',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
      payload: file,
    });
    expect(res.json()).toMatchObject({
      created: 1,
      failed: 1,
      errors: [{ line: 2, code: 'ACCOUNT_EXISTS', message: 'clientId belongs to an erased member' }],
    });
    expect(await traces(CLIENT_ID)).toEqual([]);
    // Kept as a key only: the erased ID is not readable from it.
    const keys = await sql<{ key: string; keyed: boolean }>`select key, keyed from erased_client_ids`.execute(
      db,
    );
    expect(keys.rows.length).toBeGreaterThan(0);
    expect(keys.rows.every((r) => /^[0-9a-f]{64}$/.test(r.key) && r.keyed)).toBe(true);
    // Nor testable by whoever holds a dump and guesses the ID: the key needs the servers' secret.
    expect(await keysOf(CLIENT_ID)).toEqual({ unkeyed: 0, keyed: 1 });
  });

  it('keys erasures an earlier version kept unkeyed (as a server starts); they still keep the member out', async () => {
    const guessed = 'Old-Erasure-0042';
    await sql`insert into erased_client_ids (key) values (erased_client_key(${guessed}))`.execute(db);
    expect(await keysOf(guessed)).toEqual({ unkeyed: 1, keyed: 0 });
    // An earlier server erased it again after it came back, beside the keyed row: one key is left.
    await sql`insert into erased_client_ids (key, keyed) values (erased_client_key(${CLIENT_ID}), false)`.execute(
      db,
    );
    await keyErasedClientIds(db, testKeySecret);
    expect(await keysOf(guessed)).toEqual({ unkeyed: 0, keyed: 1 });
    expect(await keysOf(CLIENT_ID)).toEqual({ unkeyed: 0, keyed: 1 });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts?skipInvalid=true',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
      payload: `clientId\n${guessed.toLowerCase()}\n`,
    });
    expect(res.json()).toMatchObject({ created: 0, failed: 1, errors: [{ code: 'ACCOUNT_EXISTS' }] });
  });

  it("removes the free-text reasons the member's cards were blocked with, in the audit log and the events", async () => {
    const BLOCK_REASON = 'Lost by Sam Roe at the gym, call 555-0142';
    const account = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        ...admin,
        payload: { clientId: 'Sam.Roe' },
      })
    ).json();
    const lost = (
      await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin })
    ).json();
    const blocked = await app.inject({
      method: 'POST',
      url: `/api/v1/cards/${lost.id}/block`,
      ...admin,
      payload: { reason: BLOCK_REASON },
    });
    expect(blocked.statusCode).toBe(200);
    // A reissue of the blocked card keeps its reason, in the card.reissued event and its audit entry.
    const reissued = await app.inject({ method: 'POST', url: `/api/v1/cards/${lost.id}/reissue`, ...admin });
    expect(reissued.statusCode).toBe(201);
    expect(await traces(BLOCK_REASON)).toEqual(expect.arrayContaining(['cards', 'audit', 'events']));

    const res = await erase({ confirm: 'Sam.Roe' }, ctx.tokens.ADMIN, account.id);
    expect(res.statusCode).toBe(200);
    expect(await traces(BLOCK_REASON)).toEqual([]);
    expect(await traces('Sam Roe')).toEqual([]);
    // What the history keeps: which card was issued, blocked and reissued as which.
    const messages = await db
      .selectFrom('audit_log')
      .select('message')
      .where('target_type', '=', 'card')
      .where('target_id', '=', lost.id)
      .orderBy('executed_at')
      .execute();
    expect(messages.map((m) => m.message)).toEqual([
      `Issued card ${lost.number}`,
      `Blocked card ${lost.number}`,
      expect.stringMatching(new RegExp(`^Reissued card ${lost.number} as \\d+$`)),
    ]);
    expect(await verifyLedger(db)).toMatchObject({ differences: [] });
  });

  it("a member whose id begins with an erased member's first 8 digits is erased with more digits, and a retry recognises them", async () => {
    // Two ids sharing their first 8 hex digits (about one pair among 100,000 erased members): the second
    // erasure failed on the unique client ID.
    const [one, two] = ['5eed0000-0000-4000-8000-000000000001', '5eed0000-0000-4000-8000-000000000002'];
    await sql`insert into accounts (id, client_id) values (${one}::uuid, 'Twin.One'), (${two}::uuid, 'Twin.Two')`.execute(
      db,
    );
    const first = await erase({ confirm: 'Twin.One' }, ctx.tokens.ADMIN, one);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().clientId).toBe('erased-5eed0000');
    const second = await erase({ confirm: 'Twin.Two' }, ctx.tokens.ADMIN, two);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().clientId).toBe('erased-5eed00000000');
    const retried = await erase({ confirm: 'Twin.Two' }, ctx.tokens.ADMIN, two);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().clientId).toBe('erased-5eed00000000');
  });

  it('erases what was written through requests naming the account or card with its id in capitals', async () => {
    // UUIDs are accepted in any case; audit entries used to keep the id as typed, which the erasure (matching
    // the stored lower-case ids) then passed over, leaving the reasons in the audit log.
    const ACCRUAL_REASON = 'Refund for Max Mustermann, Hauptstr. 5';
    const BLOCK_REASON = 'Stolen from Max Mustermann';
    const account = (
      await app.inject({ method: 'POST', url: '/api/v1/accounts', ...admin, payload: { clientId: 'Max.M' } })
    ).json();
    const upper = (id: string) => id.toUpperCase();
    const card = (
      await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${upper(account.id)}`, ...admin })
    ).json();
    const blocked = await app.inject({
      method: 'POST',
      url: `/api/v1/cards/${upper(card.id)}/block`,
      ...admin,
      payload: { reason: BLOCK_REASON },
    });
    expect(blocked.statusCode).toBe(200);
    const reissued = await app.inject({
      method: 'POST',
      url: `/api/v1/cards/${upper(card.id)}/reissue`,
      ...admin,
    });
    expect(reissued.statusCode).toBe(201);
    const accrual = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      ...admin,
      payload: { accountId: upper(account.id), points: 3, reason: ACCRUAL_REASON },
    });
    expect(accrual.statusCode).toBe(201);
    expect(await traces('Max Mustermann')).toEqual(expect.arrayContaining(['audit', 'operations']));

    expect((await erase({ confirm: 'Max.M' }, ctx.tokens.ADMIN, account.id)).statusCode).toBe(200);
    expect(await traces('Max Mustermann')).toEqual([]);
    expect(await traces('Max.M')).toEqual([]);
  });

  it('leaves every other member as it was', async () => {
    expect(await traces('Bystander-1')).toEqual(expect.arrayContaining(['accounts', 'audit']));
    const other = (await app.inject({ url: `/api/v1/accounts/${bystanderId}/export`, ...admin })).json();
    expect(other.account.clientId).toBe('Bystander-1');
    expect(other.operations.map((o: { meta: { reason?: string } }) => o.meta.reason)).toEqual([
      OTHER_REASON,
      OTHER_REASON,
    ]);
    expect(other.cards.map((c: { status: string }) => c.status).sort()).toEqual(['active', 'blocked']);
  });
});

describe("an erasure keeps the reasons the system wrote: a POS return's stays", () => {
  it('clears the free-text reason and keeps "Return of receipt …", so the return still explains itself', async () => {
    await createRuleset(db, { version: 1, percent: 10 });
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const account = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        ...admin,
        payload: { clientId: 'Returner-7' },
      })
    ).json();
    const card = (
      await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin })
    ).json();
    const receipt = {
      receiptId: `R-${account.id.slice(0, 8)}`,
      items: [{ sku: 'A', quantity: 1, price: 50 }],
    };
    const accrual = `acc-${account.id}`;
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).statusCode).toBe(
      201,
    );
    const returned = await pos.returns({ operationId: `ret-${account.id}`, originalOperationId: accrual });
    expect(returned.statusCode, returned.body).toBe(201);
    const manual = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      ...admin,
      payload: { accountId: account.id, points: 2, reason: 'Apology to the Returner family' },
    });
    expect(manual.statusCode).toBe(201);

    expect((await erase({ confirm: 'Returner-7' }, account.id)).statusCode).toBe(200);
    const doc = (await app.inject({ url: `/api/v1/accounts/${account.id}/export`, ...admin })).json();
    const reasons = doc.operations.map((o: { type: string; meta: { reason?: string } }) => [
      o.type,
      o.meta.reason,
    ]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['adjustment', `Return of receipt ${receipt.receiptId}`],
        ['adjustment', undefined],
      ]),
    );
    expect(await traces('Returner family')).toEqual([]);
    // The events say what the operations say: the return's reason stays in its points.returned event too.
    const events = await db
      .selectFrom('events')
      .select(sql<string | null>`data -> 'meta' ->> 'reason'`.as('reason'))
      .where('type', '=', 'points.returned')
      .where(sql<string>`data ->> 'accountId'`, '=', account.id)
      .execute();
    expect(events.map((e) => e.reason)).toEqual([`Return of receipt ${receipt.receiptId}`]);
    const [entry] = await db
      .selectFrom('audit_log')
      .select('dest')
      .where('target_id', '=', account.id)
      .where('message', 'like', 'Erased%')
      .execute();
    expect(entry!.dest).toMatchObject({ reasonsCleared: 1 });
  });
});

async function erase(payload: unknown, id: string) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/accounts/${id}/erase`,
    ...admin,
    payload: payload as object,
  });
}
