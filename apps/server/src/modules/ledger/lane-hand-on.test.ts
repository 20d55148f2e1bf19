import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HandOns, LONE_WRITE_LANE_MS, laneHandOn } from './lane-hand-on';

/** A write alone that waits until the test lets it end. */
function stuckWrite() {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { work: () => ended, end };
}

describe('laneHandOn', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the lane while a write alone is quick, and hands it on once it waits past LONE_WRITE_LANE_MS', async () => {
    const handOns: HandOns = { waiting: 0 };
    const release = vi.fn();
    const quick = laneHandOn(handOns, release);
    await quick.alone(async () => 'done');
    quick.done();
    await vi.advanceTimersByTimeAsync(LONE_WRITE_LANE_MS * 4);
    expect(release).not.toHaveBeenCalled();

    const slow = laneHandOn(handOns, release);
    const write = stuckWrite();
    const running = slow.alone(write.work);
    await vi.advanceTimersByTimeAsync(LONE_WRITE_LANE_MS - 1);
    expect(release).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(release).toHaveBeenCalledTimes(1);
    expect(handOns.waiting).toBe(1);
    write.end();
    await running;
    slow.done();
    expect(handOns.waiting).toBe(0);
  });

  it('one batch of a kind at a time waits with its lane handed on: the next hands on when it is done', async () => {
    const handOns: HandOns = { waiting: 0 };
    const [firstRelease, secondRelease] = [vi.fn(), vi.fn()];
    const first = laneHandOn(handOns, firstRelease);
    const second = laneHandOn(handOns, secondRelease);
    const [a, b] = [stuckWrite(), stuckWrite()];
    const runningA = first.alone(a.work);
    const runningB = second.alone(b.work);
    await vi.advanceTimersByTimeAsync(LONE_WRITE_LANE_MS * 3);
    expect(firstRelease).toHaveBeenCalledTimes(1);
    // Each waiting write holds a pooled connection: the second keeps its lane, so no third one starts.
    expect(secondRelease).not.toHaveBeenCalled();
    a.end();
    await runningA;
    first.done();
    await vi.advanceTimersByTimeAsync(LONE_WRITE_LANE_MS);
    expect(secondRelease).toHaveBeenCalledTimes(1);
    b.end();
    await runningB;
    second.done();
    expect(handOns.waiting).toBe(0);
  });
});
