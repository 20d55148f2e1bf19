import { erasedClientId } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { csv, importer } from '../imports/imports.fixtures';

// PROGRAMME-API §4: an erasure clears the free-text reasons of the account's operations. A staff credit
// with a reason after it would put the member's data back (operation, audit entry, export, event), so an
// erased account takes no admin adjustment at all: 409 ACCOUNT_ERASED, and nothing is written.
const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;
const admin = { headers: bearer(ctx.tokens.ADMIN) };
const post = importer(ctx);

const REASON = 'Goodwill: jane.doe-x complained by phone +44 7700 900123';
const ERASED_MESSAGE = "This member's data was erased; no points can be added or removed by hand";
const erasedRow = { line: 2, code: 'ACCOUNT_ERASED', message: ERASED_MESSAGE };

async function erasedMember(clientId: string): Promise<{ id: string; cardNumber: string }> {
  const account = (
    await app.inject({ method: 'POST', url: '/api/v1/accounts', ...admin, payload: { clientId } })
  ).json();
  const card = (
    await app.inject({ method: 'POST', url: `/api/v1/cards/issue/${account.id}`, ...admin })
  ).json();
  const erased = await app.inject({
    method: 'POST',
    url: `/api/v1/accounts/${account.id}/erase`,
    ...admin,
    payload: { confirm: clientId },
  });
  expect(erased.statusCode, erased.body).toBe(200);
  return { id: account.id, cardNumber: card.number };
}

/** What an adjustment of the account could have written: its operations, audit entries, events and balance. */
async function writtenFor(accountId: string) {
  const counts = await sql<{ operations: number; audit: number; events: number; reasons: number }>`
    select
      (select count(*)::int from operations where account_id = ${accountId}::uuid) as operations,
      (select count(*)::int from audit_log where target_id = ${accountId}) as audit,
      (select count(*)::int from events where data ->> 'accountId' = ${accountId}) as events,
      (select count(*)::int from operations where meta::text ilike '%complained%')
        + (select count(*)::int from audit_log where message ilike '%complained%')
        + (select count(*)::int from events where data::text ilike '%complained%') as reasons`.execute(db);
  const { balance } = await db
    .selectFrom('accounts')
    .select('balance')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { ...counts.rows[0]!, balance };
}

describe('admin adjustments of an erased member', () => {
  it('a manual accrual after the erasure is 409 ACCOUNT_ERASED and writes nothing', async () => {
    const member = await erasedMember('jane.doe-x');
    const before = await writtenFor(member.id);
    for (const headers of [{}, { 'idempotency-key': 'after-erasure-1' }]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/admin/operations/manual-accrual',
        headers: { ...bearer(ctx.tokens.MANAGER), ...headers },
        payload: { accountId: member.id, points: 10, reason: REASON },
      });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({
        status: 409,
        code: 'ACCOUNT_ERASED',
        message: ERASED_MESSAGE,
      });
    }
    expect(await writtenFor(member.id)).toEqual(before);
    expect(before.reasons).toBe(0);
  });

  it('bulk credit rows naming an erased member, by erased client ID or card, are ACCOUNT_ERASED error rows', async () => {
    const member = await erasedMember('john.roe-y');
    const bystander = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        ...admin,
        payload: { clientId: 'BULK-OK' },
      })
    ).json();
    const before = await writtenFor(member.id);
    const byId = csv(
      'clientId,points,reason',
      `${erasedClientId(member.id)},5,${REASON}`,
      `BULK-OK,3,${REASON}`,
    );
    const byCard = csv('cardNumber,points,reason', `${member.cardNumber},7,${REASON}`);
    for (const query of ['dryRun=true', 'skipInvalid=true']) {
      const res = await post('accruals', byId, { query });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ rows: 2, created: 1, failed: 1 });
      expect(res.json().errors).toEqual([erasedRow]);
    }
    const card = await post('accruals', byCard, { query: 'skipInvalid=true' });
    expect(card.json()).toMatchObject({ rows: 1, created: 0, failed: 1 });
    expect(card.json().errors).toEqual([erasedRow]);

    const after = await writtenFor(member.id);
    // The imports' own audit entries are not the account's; nothing of the member's moved.
    expect({ ...after, reasons: 0 }).toEqual({ ...before, reasons: 0 });
    const credited = await db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', bystander.id)
      .executeTakeFirstOrThrow();
    expect(credited.balance).toBe('3.00');
  });
});
