import { describe, expect, it } from 'vitest';
import { availableCents } from './available';

describe('availableCents: balance − held − pending, never negative', () => {
  it('takes held and pending points from the balance', () => {
    expect(availableCents({ balance: 10_000n, held: 2_500n, pending: 1_250n })).toBe(6_250n);
  });

  it('gives back what lapsed holds still show as held', () => {
    expect(availableCents({ balance: 10_000n, held: 2_500n, pending: 0n, lapsed: 2_000n })).toBe(9_500n);
  });

  it('is zero, not negative, when holds and pending points exceed the balance', () => {
    expect(availableCents({ balance: 1_000n, held: 900n, pending: 500n })).toBe(0n);
  });
});
