/** A small seeded PRNG (mulberry32), so the demo programme is the same on every machine. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    /** Index drawn in proportion to the weights. */
    weighted: (weights: readonly number[]) => {
      const total = weights.reduce((a, b) => a + b, 0);
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i] ?? 0;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    /** Skewed towards low indexes: a few loyal customers shop far more often than the rest. */
    skewed: (n: number, power = 2.2) => Math.min(n - 1, Math.floor(n * next() ** power)),
  };
}

export type Random = ReturnType<typeof createRandom>;
