import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, TEST_JWT_SECRET } from '../../../test/helper';
import { canonicalJson, requestHash } from '../../lib/request-hash';
import { importer } from '../imports/imports.fixtures';
import { erasedClientSecret } from './erased-client-secret';
import { keyErasedClientIds } from './member-data.repository';

// What an erasure keeps must hold no digest a guess of the erased client ID or reason can be checked against
// without the server's secret (an 8-digit client ID is 10^8 guesses: a minute and a half of SHA-256). The
// digests are kept for what they do: a file posted again is recognised, a retried accrual replays, the audit
// tells the same file twice: that keeps working after the erasure.
const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;
const post = importer(ctx);
const admin = { headers: bearer(ctx.tokens.ADMIN) };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The test servers' secret (`buildTestApp`'s POS_KEY_SECRET), as member-data derives it. */
const keySecret = erasedClientSecret({ jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) });

const CLIENT_ID = '48213377';
const MEMBERS_FILE = `clientId,cardNumber,points\n${CLIENT_ID},7731000044100002,12\n`;
const CREDIT_FILE = `clientId,points\n${CLIENT_ID},5\n`;
const REASON = 'Apology for the broken hip at the Elm Street store';

const members = await post('accounts', MEMBERS_FILE);
expect(members.json()).toMatchObject({ created: 1, failed: 0 });
const credit = await post('accruals', CREDIT_FILE);
expect(credit.json()).toMatchObject({ created: 1, failed: 0 });
const accountId = (
  await sql<{ id: string }>`select id from accounts where client_id = ${CLIENT_ID}`.execute(db)
).rows[0]!.id;
const accrual = { accountId, points: 3, reason: REASON };
const accrue = () =>
  app.inject({
    method: 'POST',
    url: '/api/v1/admin/operations/manual-accrual',
    headers: { ...bearer(ctx.tokens.MANAGER), 'idempotency-key': 'digest-accrual' },
    payload: accrual,
  });
const accrued = await accrue();
expect(accrued.statusCode, accrued.body).toBe(201);
const erased = await app.inject({
  method: 'POST',
  url: `/api/v1/accounts/${accountId}/erase`,
  ...admin,
  payload: { confirm: CLIENT_ID },
});
expect(erased.statusCode, erased.body).toBe(200);

/** A plain SHA-256 of the credit file's rows, as `rowsFingerprint` builds its string. */
async function plainRowsFingerprint(): Promise<string> {
  const found = await sql<{ fingerprint: string }>`
    select encode(sha256(convert_to(
      jsonb_build_array(lower(${CLIENT_ID}::text), null::text, (5)::numeric(14, 2)::text, null::text)::text,
      'UTF8')), 'hex') as fingerprint`.execute(db);
  return found.rows[0]!.fingerprint;
}

describe('after an erasure, no plain digest of what it erased', () => {
  it('the audit, the bulk credit keys and the manual accrual keys hold none', async () => {
    const bodies = [sha256(MEMBERS_FILE), sha256(CREDIT_FILE)];
    const audit = await sql<{ n: number }>`
      select count(*)::int as n from audit_log
      where target_type = 'import' and (dest::text like ${`%${bodies[0]}%`} or dest::text like ${`%${bodies[1]}%`})`.execute(
      db,
    );
    expect(audit.rows[0]!.n).toBe(0);
    const fileHashes = ['false', 'true'].map((skip) => requestHash('imports/accruals', skip, bodies[1]!));
    const fingerprint = await plainRowsFingerprint();
    const bulk = await sql<{ n: number }>`
      select count(*)::int as n from bulk_credit_keys
      where key = ${bodies[1]} or request_hash in (${fileHashes[0]}, ${fileHashes[1]})
        or rows_fingerprint = ${fingerprint}`.execute(db);
    expect(bulk.rows[0]!.n).toBe(0);
    const plainAccrual = requestHash('manual-accrual', canonicalJson(accrual));
    const keys = await sql<{ n: number }>`
      select count(*)::int as n from idempotency_keys where request_hash = ${plainAccrual}`.execute(db);
    expect(keys.rows[0]!.n).toBe(0);
  });

  it('the credit file posted again is the earlier import: replayed, and its rows saved otherwise named', async () => {
    const again = await post('accruals', CREDIT_FILE);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(credit.body);
    const resaved = await post('accruals', CREDIT_FILE.replaceAll('\n', '\r\n'), { query: 'dryRun=true' });
    expect(resaved.json()).toMatchObject({ duplicateOf: { importId: credit.json().importId } });
  });

  it('the manual accrual retried with its key replays its answer, without the erased reason', async () => {
    const again = await accrue();
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().operation.id).toBe(accrued.json().operation.id);
    expect(again.json().operation.meta.reason).toBeUndefined();
  });

  it('the audit still tells the same file imported twice', async () => {
    const second = await post('accounts', MEMBERS_FILE, { query: 'skipInvalid=true' });
    expect(second.json()).toMatchObject({ created: 0, failed: 1 });
    const digests = await sql<{ digest: string }>`
      select dest ->> 'fileDigest' as digest from audit_log
      where target_type = 'import' and target_id in (${members.json().importId}, ${second.json().importId})`.execute(
      db,
    );
    expect(digests.rows).toHaveLength(2);
    expect(digests.rows[0]!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digests.rows[1]!.digest).toBe(digests.rows[0]!.digest);
  });
});

describe('digests an earlier version kept plain', () => {
  const FILE = 'clientId,points\nOLD-1,2\n';

  it('are keyed as a server starts, and still recognised before and after', async () => {
    expect((await post('accounts', 'clientId\nOLD-1\n')).json()).toMatchObject({ created: 1 });
    const importId = crypto.randomUUID();
    const answer = { dryRun: false, rows: 1, created: 1, unchanged: 0, failed: 0, errors: [], importId };
    const fingerprint = sha256('old rows');
    // As the release before wrote them: the body's SHA-256 as the key, plain hashes, the audit's sha256.
    await sql`insert into bulk_credit_keys (key, request_hash, status_code, response, rows_fingerprint)
      values (${sha256(FILE)}, ${requestHash('imports/accruals', 'false', sha256(FILE))}, 200,
        ${JSON.stringify(answer)}::jsonb, ${fingerprint})`.execute(db);
    await sql`insert into audit_log (username, message, target_type, target_id, dest)
      values ('admin', 'Imported bulk credits from CSV: 1 created, 0 unchanged, 0 failed', 'import', ${importId},
        ${JSON.stringify({ kind: 'accruals', rows: 1, bytes: FILE.length, sha256: sha256(FILE) })}::jsonb)`.execute(
      db,
    );
    const plainAccrual = requestHash('manual-accrual', canonicalJson({ accountId, points: 1, reason: 'x' }));
    await sql`insert into idempotency_keys (user_id, key, request_hash, status_code, response)
      select id, 'old-accrual', ${plainAccrual}, 409,
        '{"status":409,"message":"The member data of this account was erased","code":"ACCOUNT_ERASED"}'::jsonb
      from users where username = 'admin'`.execute(db);
    const retryAccrual = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/admin/operations/manual-accrual',
        headers: { ...admin.headers, 'idempotency-key': 'old-accrual' },
        payload: { accountId, points: 1, reason: 'x' },
      });
    const accrualBefore = await retryAccrual();
    expect(accrualBefore.statusCode).toBe(409);
    expect(accrualBefore.headers['idempotent-replayed']).toBe('true');

    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/accounts',
        headers: { ...admin.headers, 'idempotency-key': 'old-create' },
        payload: { clientId: 'OLD-2' },
      });
    expect((await create()).statusCode).toBe(201);

    const before = await post('accruals', FILE);
    expect(before.headers['idempotent-replayed']).toBe('true');
    expect(before.json()).toEqual(answer);

    await keyErasedClientIds(db, keySecret);
    await keyErasedClientIds(db, keySecret); // a second server starting: nothing left to key

    const keyed = (plain: string) => sha256(`${keySecret}:${plain}`);
    const bulk = await sql<{ key: string; request_hash: string; rows_fingerprint: string; keyed: boolean }>`
      select key, request_hash, rows_fingerprint, keyed from bulk_credit_keys
      where response ->> 'importId' = ${importId}`.execute(db);
    expect(bulk.rows).toEqual([
      {
        key: keyed(sha256(FILE)),
        request_hash: keyed(requestHash('imports/accruals', 'false', sha256(FILE))),
        rows_fingerprint: keyed(fingerprint),
        keyed: true,
      },
    ]);
    const audit = await sql<{ dest: Record<string, unknown> }>`
      select dest from audit_log where target_type = 'import' and target_id = ${importId}`.execute(db);
    expect(audit.rows[0]!.dest).toEqual({
      kind: 'accruals',
      rows: 1,
      bytes: FILE.length,
      fileDigest: keyed(sha256(FILE)),
    });
    const accrualKey = await sql<{ request_hash: string }>`
      select request_hash from idempotency_keys where key = 'old-accrual'`.execute(db);
    expect(accrualKey.rows[0]!.request_hash).toBe(keyed(plainAccrual));
    // An admin create's request hash is compared plain (`createUnderKey`): left as it is, and replayed.
    const created = await sql<{ keyed: boolean }>`
      select keyed from idempotency_keys where key = 'old-create'`.execute(db);
    expect(created.rows).toEqual([{ keyed: false }]);
    const retried = await create();
    expect(retried.headers['idempotent-replayed']).toBe('true');

    const accrualAfter = await retryAccrual();
    expect(accrualAfter.statusCode).toBe(409);
    expect(accrualAfter.headers['idempotent-replayed']).toBe('true');

    const after = await post('accruals', FILE);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.json()).toEqual(answer);
  });
});
