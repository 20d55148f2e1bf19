import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

// Issue 11: an import's server memory is independent of the file. The server runs in this process, so the
// file is generated as it is sent (the test holds no more of it than the server may).
const ctx = await createTestContext();
const { app } = ctx;
const ROWS = Number(process.env.IMPORT_MEMORY_ROWS ?? 20_000);
const HEADER = 'clientId,cardNumber,points,expiresAt,reason\n';

// A full collection before each reading, so the figure is what the import keeps alive, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

/** Members file rows `from` ≤ i < `to`, each a new account with a card (`cardDigit` first) and opening points. */
const memberLines = (prefix: string, cardDigit: number, from: number, to: number) => {
  let text = '';
  for (let i = from; i < to; i++)
    text += `${prefix}-${i},${cardDigit}${String(i).padStart(15, '0')},${(i % 500) + 0.5},2099-01-01T00:00:00Z,Opening balance\n`;
  return text;
};

/** The file as a stream of chunks of 1,000 rows, made on demand; `onChunk` runs before each. */
function memberFile(
  prefix: string,
  cardDigit: number,
  rows: number,
  onChunk: (sent: number) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sent = 0;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(HEADER));
    },
    pull(controller) {
      onChunk(sent);
      if (sent >= rows) {
        controller.close();
        return;
      }
      const to = Math.min(rows, sent + 1000);
      controller.enqueue(encoder.encode(memberLines(prefix, cardDigit, sent, to)));
      sent = to;
    },
  });
}

async function postMembers(url: string, body: ReadableStream<Uint8Array>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as { created: number; failed: number } };
}

describe('member import in constant memory', () => {
  it(`a ${ROWS.toLocaleString('en')}-row import keeps the server's retained heap flat`, async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://127.0.0.1:${port}/api/v1/imports/accounts`;
    // Warm up every code path (parse, spool, merge, events, credits, report) on a small file first, so
    // what is loaded once does not count as growth.
    const warm = await postMembers(
      url,
      memberFile('WARM', 7, 2000, () => undefined),
    );
    expect(warm).toMatchObject({ status: 200, body: { created: 2000, failed: 0 } });

    const before = retainedHeap();
    let peak = 0;
    let samples = 0;
    const sample = () => {
      peak = Math.max(peak, retainedHeap() - before);
      samples++;
    };
    // While the body streams: every 5,000 rows sent. During the merge (no body left to send) a timer
    // samples too; how often it fires does not matter to the assertion, a missed sample only lowers the peak.
    const sampler = setInterval(sample, 500);
    let result: Awaited<ReturnType<typeof postMembers>>;
    try {
      result = await postMembers(
        url,
        memberFile('MEM', 8, ROWS, (sent) => {
          if (sent % 5000 === 0) sample();
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const after = retainedHeap() - before;
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `import of ${ROWS} member rows: retained heap growth peak ${mb(peak)} over ${samples} samples, after ${mb(after)}`,
    );

    expect(result).toMatchObject({ status: 200, body: { created: ROWS, failed: 0 } });
    // Generous: what the import holds at any moment is a batch of rows (spool, posting, events); a file
    // held whole (as column arrays and maps of its client IDs and card numbers, before the spool) grows
    // with its rows.
    expect(peak, `peak retained growth ${mb(peak)}`).toBeLessThan(16 * 1024 * 1024);
    expect(after, `retained growth after the import ${mb(after)}`).toBeLessThan(16 * 1024 * 1024);
  }, 600_000);
});
