/**
 * Waits for a condition by polling it a bounded number of times (the fault tests never sleep to
 * synchronise: they wait for the state they need, and give up with a message if it never comes).
 */
export async function pollUntil(
  condition: () => Promise<boolean> | boolean,
  options: { attempts?: number; intervalMs?: number; what: string; detail?: () => string },
): Promise<void> {
  const attempts = options.attempts ?? 300;
  for (let i = 0; i < attempts; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
  const detail = options.detail ? `\n${options.detail().slice(-4000)}` : '';
  throw new Error(`gave up waiting for ${options.what} after ${attempts} attempts${detail}`);
}
