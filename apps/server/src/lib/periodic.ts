/** A job started by `startPeriodic`; `stop` clears the timer and waits for a run in progress. */
export interface PeriodicJob {
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs`, never two runs at once in this process (a tick that finds the previous run
 * still going is skipped, not queued). The timer does not keep the process alive. Errors are `run`'s to
 * handle: a rejection here would be an unhandled one.
 */
export function startPeriodic(intervalMs: number, run: () => Promise<void>): PeriodicJob {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = run().finally(() => {
      running = null;
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
