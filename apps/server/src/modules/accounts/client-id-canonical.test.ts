import { canonicalClientId } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, TEST_JWT_SECRET } from '../../../test/helper';
import { csv, importer } from '../imports/imports.fixtures';
import { erasedClientSecret } from '../member-data/erased-client-secret';
import { rememberErasedClientId } from '../member-data/member-data.repository';

// Look-alike client IDs are one member: `José` as é (NFC) or as e + U+0301 (NFD), with a zero-width space, a
// byte order mark or a no-break space. Every way a client ID comes in takes its canonical form.
const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;
const post = importer(ctx);

const NFC = 'Jos\u00e9';
const NFD = 'Jose\u0301';

const create = (clientId: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/accounts',
    headers: bearer(ctx.tokens.MANAGER),
    payload: { clientId },
  });
const search = (text: string) =>
  app.inject({
    url: `/api/v1/accounts?search=${encodeURIComponent(text)}`,
    headers: bearer(ctx.tokens.VIEWER),
  });
const accountsLike = async (pattern: string) =>
  (
    await sql<{ client_id: string }>`select client_id from accounts where client_id ilike ${pattern}
      order by client_id`.execute(db)
  ).rows.map((r) => r.client_id);

describe('canonicalClientId', () => {
  it('removes format characters, makes Unicode spaces a space, composes (NFC) and trims, once for all', () => {
    expect(canonicalClientId(NFD)).toBe(NFC);
    expect(canonicalClientId('\ufeffmember-B\u200b')).toBe('member-B');
    expect(canonicalClientId('member\u00a0B\u2003')).toBe('member B');
    expect(canonicalClientId('\u202eabc\u202c\u200d')).toBe('abc');
    // A zero-width space between a letter and its mark: the mark still composes with the letter.
    expect(canonicalClientId('Jose\u200b\u0301')).toBe(NFC);
    for (const text of [NFD, ' a\u00a0\u200bb ', '\u2000x\u2001', 'e\u0301\u0323']) {
      expect(canonicalClientId(canonicalClientId(text))).toBe(canonicalClientId(text));
    }
  });
});

describe('POST /api/v1/accounts with look-alike client IDs', () => {
  it('stores the canonical form, and every spelling of it is the one account (409 CLIENT_ID_TAKEN)', async () => {
    const first = await create(NFD);
    expect(first.statusCode).toBe(201);
    expect(first.json().clientId).toBe(NFC);
    for (const variant of [NFC, NFD, `${NFC}\u200b`, `\ufeff${NFD}`, 'JOSE\u0301', `Jo\u200ds\u00e9`]) {
      const res = await create(variant);
      expect(res.statusCode, JSON.stringify(variant)).toBe(409);
      expect(res.json().code).toBe('CLIENT_ID_TAKEN');
    }
    expect((await create('member-B')).statusCode).toBe(201);
    expect((await create('member-B\u200b')).json().code).toBe('CLIENT_ID_TAKEN');
    expect((await create('member B')).statusCode).toBe(201);
    expect((await create('member\u00a0B')).json().code).toBe('CLIENT_ID_TAKEN');
    expect((await create('member\u202fB')).json().code).toBe('CLIENT_ID_TAKEN');
    expect(await accountsLike('jos%')).toEqual([NFC]);
    expect(await accountsLike('member%')).toEqual(['member B', 'member-B']);
  });

  it('a client ID of only invisible characters is still required', async () => {
    const res = await create('\u200b\u00a0\u2060');
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Client ID is required');
  });

  it('the list search finds the account by either spelling, short or long', async () => {
    for (const text of [NFC, NFD, `${NFD}\u200b`, 'se\u0301', 'e\u0301', 'os\u00e9']) {
      const res = await search(text);
      expect(res.statusCode).toBe(200);
      expect(res.json().totalElements, JSON.stringify(text)).toBe(1);
      expect(res.json().content.map((a: { clientId: string }) => a.clientId)).toEqual([NFC]);
    }
  });
});

describe('imports with look-alike client IDs', () => {
  it('a member row in another spelling of an existing account is unchanged, with points ACCOUNT_EXISTS', async () => {
    expect((await create('Ana\u00efs')).statusCode).toBe(201);
    for (const variant of ['Anai\u0308s', 'Ana\u00efs\u200b', '\u00a0Anai\u0308s', 'ANAI\u0308S']) {
      const res = await post('accounts', csv('clientId,cardNumber', `${variant},`));
      // In another case it is the account too, though not the same row (PROGRAMME-API §4: ACCOUNT_EXISTS).
      expect(res.json(), JSON.stringify(variant)).toMatchObject(
        variant === 'ANAI\u0308S'
          ? { created: 0, unchanged: 0, failed: 1, errors: [{ line: 2, code: 'ACCOUNT_EXISTS' }] }
          : { created: 0, unchanged: 1, failed: 0 },
      );
      const withPoints = await post('accounts', csv('clientId,points', `${variant},5`));
      expect(withPoints.json()).toMatchObject({
        created: 0,
        failed: 1,
        errors: [{ line: 2, code: 'ACCOUNT_EXISTS' }],
      });
    }
    expect(await accountsLike('ana%')).toEqual(['Ana\u00efs']);
  });

  it('a new member in NFD is created canonical; its other spelling in the same file is the same member', async () => {
    const res = await post('accounts', csv('clientId,cardNumber', 'Zoe\u0308,', 'Zo\u00eb\u200b,'), {
      query: 'skipInvalid=true',
    });
    expect(res.json()).toMatchObject({
      created: 1,
      failed: 1,
      errors: [{ line: 3, code: 'ACCOUNT_EXISTS' }],
    });
    expect(await accountsLike('zo%')).toEqual(['Zo\u00eb']);
  });

  it('a bulk credit names the account in any spelling', async () => {
    const account = (await create('Fran\u00e7ois')).json();
    const res = await post('accruals', csv('clientId,points', 'Franc\u0327ois,5', 'Fran\u00e7ois\u200b,2'));
    expect(res.json()).toMatchObject({ failed: 0 });
    const got = await app.inject({
      url: `/api/v1/accounts/${account.id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(got.json().balance).toBe(7);
  });
});

describe('an erased member in every spelling', () => {
  const CLIENT_ID = 'Ren\u00e9e-77';

  it('the confirmation compares canonically, and no spelling brings the member back', async () => {
    const account = (await create(CLIENT_ID)).json();
    const erase = await app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${account.id}/erase`,
      headers: bearer(ctx.tokens.ADMIN),
      // Typed on a keyboard that writes the accent as a mark of its own, with a stray zero-width space.
      payload: { confirm: 'Rene\u0301e-77\u200b' },
    });
    expect(erase.statusCode, erase.body).toBe(200);
    for (const variant of [
      CLIENT_ID,
      'Rene\u0301e-77',
      `${CLIENT_ID}\u200b`,
      `\ufeff${CLIENT_ID}`,
      'RENE\u0301E-77',
    ]) {
      const res = await post('accounts', csv('clientId,cardNumber', `${variant},`));
      expect(res.json(), JSON.stringify(variant)).toMatchObject({
        created: 0,
        failed: 1,
        errors: [{ line: 2, code: 'ACCOUNT_EXISTS', message: 'clientId belongs to an erased member' }],
      });
    }
    expect(await accountsLike('ren%')).toEqual([]);
  });

  it("an account left in another spelling (migration 044's collisions) is remembered by its canonical form", async () => {
    const secret = erasedClientSecret({ jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) });
    await db.transaction().execute((trx) => rememberErasedClientId(trx, 'Mu\u0308ller\u200b', secret));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from erased_client_ids
      where key = erased_client_key(${'M\u00fcller'}, ${secret})`.execute(db);
    expect(rows[0]!.n).toBe(1);
    const res = await post('accounts', csv('clientId,cardNumber', 'M\u00fcller,'));
    expect(res.json()).toMatchObject({ created: 0, errors: [{ code: 'ACCOUNT_EXISTS' }] });
  });
  it('an account migration 044 had to leave in another spelling can still be erased by typing its ID', async () => {
    // Stored as an older version left it (its canonical form taken by another account), past the contract.
    const raw = 'Zoe\u0308-44\u200b';
    const { rows } = await sql<{
      id: string;
    }>`insert into accounts (client_id) values (${raw}) returning id`.execute(db);
    const erase = await app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${rows[0]!.id}/erase`,
      headers: bearer(ctx.tokens.ADMIN),
      payload: { confirm: raw },
    });
    expect(erase.statusCode, erase.body).toBe(200);
    expect(erase.json().clientId).toMatch(/^erased-/);
  });
  it('the client lookup and the card search find an account by the spelling it carries, else by the canonical one', async () => {
    const canonical = (await create('Zo\u00eb-55')).json();
    // Left by migration 044 in its own spelling: its canonical form is the account above.
    const raw = 'Zo\u00eb-55\u200b';
    const { rows } = await sql<{
      id: string;
    }>`insert into accounts (client_id) values (${raw}) returning id`.execute(db);
    const lookup = async (text: string) =>
      (
        await app.inject({
          url: `/api/v1/clients/${encodeURIComponent(text)}/lookup`,
          headers: bearer(ctx.tokens.VIEWER),
        })
      )
        .json()
        .accounts.content.map((a: { id: string }) => a.id);
    expect(await lookup(raw)).toEqual([rows[0]!.id]);
    expect(await lookup('Zoe\u0308-55')).toEqual([canonical.id]);
    expect(await lookup('Zo\u00eb-55')).toEqual([canonical.id]);
    const cardsOf = async (text: string) => {
      const res = await app.inject({
        url: `/api/v1/cards?search=${encodeURIComponent(text)}`,
        headers: bearer(ctx.tokens.VIEWER),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().content.map((c: { accountId: string }) => c.accountId);
    };
    for (const id of [rows[0]!.id, canonical.id]) {
      const issued = await app.inject({
        method: 'POST',
        url: `/api/v1/cards/issue/${id}`,
        headers: bearer(ctx.tokens.MANAGER),
      });
      expect(issued.statusCode, issued.body).toBe(201);
    }
    expect(await cardsOf(raw)).toEqual([rows[0]!.id]);
    expect(await cardsOf('Zoe\u0308-55')).toEqual([canonical.id]);
  });
});
