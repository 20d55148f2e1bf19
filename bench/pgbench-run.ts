import { execFile } from 'node:child_process';
import { processCpuMs } from './pos-cpu';

/**
 * One run of `pgbench -b tpcb-like` (the anchor of bench:pos and bench:pos-floor) against `url`: its tps
 * without the initial connection time, the transactions it made, and the CPU ms of the pgbench client.
 */
export async function runTpcb(
  url: string,
  clients: number,
  seconds: number,
): Promise<{ tps: number; transactions: number; clientCpuMs: number }> {
  const args = ['-b', 'tpcb-like', '-c', String(clients), '-j', '2', '-T', String(seconds), url];
  let clientCpuMs = 0;
  const out = await new Promise<string>((done, fail) => {
    const child = execFile('pgbench', args, { encoding: 'utf8' }, (error, stdout) =>
      error ? fail(error) : done(stdout),
    );
    const poll = setInterval(() => {
      clientCpuMs = processCpuMs(child.pid!) ?? clientCpuMs;
    }, 100);
    child.once('exit', () => clearInterval(poll));
  });
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  if (!tps || !transactions) throw new Error(`could not read pgbench output:\n${out}`);
  return { tps, transactions, clientCpuMs };
}
