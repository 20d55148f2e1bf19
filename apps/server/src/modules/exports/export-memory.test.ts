import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

// Raw operations without balances behind them, seeded for the read: no ledger check in this file.
const ctx = await createTestContext({}, { verifyLedger: false });
const { app } = ctx;
const ROWS = Number(process.env.EXPORT_MEMORY_ROWS ?? 200_000);

// A full collection before each reading, so the figure is what the export keeps alive, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

const [account] = await ctx.database.db
  .insertInto('accounts')
  .values({ client_id: 'BULK-1' })
  .returning('id')
  .execute();
// Seeded with the triggers off (counters and rollups are not what this test reads): ten times faster.
await ctx.database.db.transaction().execute(async (trx) => {
  await sql`set local session_replication_role = replica`.execute(trx);
  await sql`
    insert into operations (type, status, points, account_id, card_number, meta, created_at)
    select 'accrual', 'completed', n % 1000, ${account!.id}::uuid, '4000000000000000',
           jsonb_build_object('reason', 'bulk row ' || n), timestamptz '2026-01-01' + n * interval '1 second'
    from generate_series(1, ${ROWS}::int) n`.execute(trx);
});

describe('format=csv streams in constant memory', () => {
  it(`a ${ROWS.toLocaleString('en')}-row export keeps the server's heap flat`, async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://127.0.0.1:${port}/api/v1/operations?format=csv`;
    const headers = bearer(ctx.tokens.VIEWER);
    // Warm up every code path first, so what is loaded once does not count as growth.
    await (await fetch(`${url}&type=hold`, { headers })).text();

    const before = retainedHeap();
    const res = await fetch(url, { headers });
    expect(res.status).toBe(200);
    let bytes = 0;
    let lines = 0;
    let peak = 0;
    let nextSample = 0;
    const decoder = new TextDecoder(); // no cell here holds a line break: one LF per record
    // Read chunk by chunk without keeping them; sample the retained heap every few megabytes.
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      lines += decoder.decode(chunk, { stream: true }).split('\n').length - 1;
      if (bytes >= nextSample) {
        peak = Math.max(peak, retainedHeap() - before);
        nextSample += 4 * 1024 * 1024;
      }
    }
    const after = retainedHeap() - before;
    console.log(
      `export of ${lines - 1} rows: ${bytes} bytes; retained heap growth peak ${peak}, after ${after}`,
    );

    expect(lines).toBe(ROWS + 1);
    // The body is tens of megabytes; what the export holds at any moment is a batch or two of rows.
    expect(bytes).toBeGreaterThan(ROWS * 150);
    expect(peak, `peak retained growth ${peak} bytes over ${bytes} bytes sent`).toBeLessThan(
      16 * 1024 * 1024,
    );
    expect(after).toBeLessThan(16 * 1024 * 1024);
  }, 600_000);
});
