/** The jobs a consumer is handling right now, so it can count them (slots) and wait for them (drain). */
export class InFlight {
  private readonly running = new Set<Promise<void>>();

  get size(): number {
    return this.running.size;
  }

  /** Tracks `work` until it settles; `onSettled` runs after it has left the set (a slot is free). */
  track(work: Promise<void>, onSettled: () => void): void {
    // `work` reports its own failures; a rejection here would only become an unhandled one.
    const tracked: Promise<void> = work
      .catch(() => undefined)
      .finally(() => {
        this.running.delete(tracked);
        onSettled();
      });
    this.running.add(tracked);
  }

  /** Resolves once nothing is running, including work that starts while waiting. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
