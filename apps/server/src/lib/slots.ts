/**
 * At most `size` holders at once in this process; a further `acquire` waits, first come first served, until a
 * holder releases. Each `acquire` answers its own release, which frees the slot once however often it is called.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Handed straight to the next waiter: the slot never shows free in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
