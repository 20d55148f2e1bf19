import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4 "Bulk credits": the default Idempotency-Key is the body's SHA-256, so the same rows saved
// again by a spreadsheet are another file. A check of such a file names the import that already credited them.
const ctx = await createTestContext();
const post = importer(ctx);

const members = await post('accounts', csv('clientId,cardNumber', 'RS-1,88880001', 'RS-2,88880002'));
expect(members.json()).toMatchObject({ created: 2, failed: 0 });

const original = 'clientId,points,reason\nRS-1,7,Spring bonus\nRS-2,2.5,Spring bonus\n';
const first = await post('accruals', original);
expect(first.json()).toMatchObject({ created: 2, failed: 0, importId: expect.any(String) });

describe('a bulk credit file with rows an import already credited', () => {
  it.each([
    ['saved with CRLF', original.replaceAll('\n', '\r\n')],
    ['with a byte order mark', `\uFEFF${original}`],
    ['with 7 as 7.00 and 2.5 as 2.50', original.replace(',7,', ',7.00,').replace(',2.5,', ',2.50,')],
    ['with a trailing line of commas', `${original},,\r\n`],
    [
      'with the client IDs in capitals and the rows in another order',
      'clientId,points,reason\nrs-2,2.5,Spring bonus\nRS-1,7,Spring bonus\n',
    ],
    ['all of it at once', `\uFEFF${original.replace(',7,', ',7.00,').replaceAll('\n', '\r\n')},,\r\n`],
  ])('%s: the check names that import', async (_, body) => {
    const check = await post('accruals', body, { query: 'dryRun=true' });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.headers['idempotent-replayed']).toBeUndefined();
    expect(check.json()).toMatchObject({
      dryRun: true,
      created: 2,
      duplicateOf: { importId: first.json().importId, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
  });

  it.each([
    ['other points', original.replace(',7,', ',8,')],
    ['another reason', original.replace('RS-2,2.5,Spring bonus', 'RS-2,2.5,Summer bonus')],
    ['a row less', 'clientId,points,reason\nRS-1,7,Spring bonus\n'],
    [
      'the card number instead of the client ID',
      'cardNumber,points,reason\n88880001,7,Spring bonus\n88880002,2.5,Spring bonus\n',
    ],
  ])('%s: no earlier import is named', async (_, body) => {
    const check = await post('accruals', body, { query: 'dryRun=true' });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ dryRun: true, created: expect.any(Number) });
    expect(check.json().duplicateOf).toBeUndefined();
  });

  it('once credited again anyway, the check names the latest import; the import itself answers as before', async () => {
    const resaved = original.replaceAll('\n', '\r\n');
    const second = await post('accruals', resaved);
    expect(second.json()).toMatchObject({ created: 2, importId: expect.any(String) });
    expect(second.json().duplicateOf).toBeUndefined();
    const check = await post('accruals', `\uFEFF${original}`, { query: 'dryRun=true' });
    expect(check.json().duplicateOf).toMatchObject({ importId: second.json().importId });
  });

  it('an import that credited nothing is no earlier import', async () => {
    const nobody = 'clientId,points\nNOBODY-1,3\n';
    const skipped = await post('accruals', nobody, { query: 'skipInvalid=true' });
    expect(skipped.json()).toMatchObject({ created: 0, failed: 1, importId: expect.any(String) });
    const check = await post('accruals', nobody.replaceAll('\n', '\r\n'), { query: 'dryRun=true' });
    expect(check.json().duplicateOf).toBeUndefined();
  });
});
