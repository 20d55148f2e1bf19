/**
 * How long a write alone keeps its kind's lane (a batch of one, or a split batch's writes): about five times
 * bench:pos's p99 on these two cores (40–50 ms, 8 tills), so in the normal run the lane still gathers the
 * next batch.
 */
export const LONE_WRITE_LANE_MS = 250;

/**
 * Writes alone of one kind (on one database) that have handed their lane on and still wait. Each holds a
 * pooled connection while it waits for its lock, and the three kinds share a pool of 10 with the console and
 * the health checks: more than one per kind could fill it behind a file's worth of locked accounts.
 */
const MOST_HANDED_ON = 1;

export interface HandOns {
  waiting: number;
}

/**
 * A batch's hold on its kind's lane while its writes run alone. A write alone takes its account's lock
 * waiting for it, and the kind's one lane is every card's: behind an account locked elsewhere (an import's,
 * another server's hot card, a hung server's) every till of the server would wait for that lock. So past
 * LONE_WRITE_LANE_MS the lane is handed on, when no other batch of the kind has handed it on and still
 * waits (else it is tried again each LONE_WRITE_LANE_MS). `done` once the batch's writes have all ended.
 */
export function laneHandOn(handOns: HandOns, release: () => void) {
  let handed = false;
  return {
    async alone<T>(work: () => Promise<T>): Promise<T> {
      const timer = setInterval(() => {
        if (handed || handOns.waiting >= MOST_HANDED_ON) return;
        handed = true;
        handOns.waiting++;
        release();
      }, LONE_WRITE_LANE_MS);
      try {
        return await work();
      } finally {
        clearInterval(timer);
      }
    },
    done() {
      if (!handed) return;
      handed = false;
      handOns.waiting--;
    },
  };
}
