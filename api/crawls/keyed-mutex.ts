/**
 * One lock per key, in this process: holders of the same key run one after the other, in the order they
 * asked. Crawls use it because the API process is their only writer and embedded PGlite has a single
 * connection, so a database row lock held across the page-creating transaction would deadlock.
 */
export class KeyedMutex {
  /** per key, the promise that settles when the latest holder releases */
  private readonly tails = new Map<number, Promise<void>>();

  /** Waits for the key and returns its release (call it exactly once, in `finally`). */
  async acquire(key: number): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      // The last holder of a key removes it, so the map does not grow with every crawl ever run.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }

  /** Runs `work` holding the key. */
  async run<T>(key: number, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
