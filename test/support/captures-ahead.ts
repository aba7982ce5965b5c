/**
 * A file's captures run a few at a time, ahead of the tests that check them. Mocha runs a file's tests one
 * after another, and a capture spends most of its time waiting on its page (timers, the settle window, the
 * browser's own processes): the driver conformance file kept one core about a third busy. When test `i`
 * asks for its capture, captures `i` to `i + atOnce - 1` are started if they have not been, so at most
 * `atOnce` run together while the tests still run, pass and fail one by one, in their order. A capture's
 * time is measured from its own start, not its test's: a case bounded in seconds counts only its capture.
 * A test left out by --grep may still have its capture started by an earlier test (at most atOnce - 1 of them).
 */
export class CapturesAhead<T> {
  private readonly started = new Map<number, Promise<{ ok: true; value: T } | { ok: false; error: unknown }>>();

  constructor(
    /** one capture per test, in the tests' order */
    private readonly captures: ReadonlyArray<() => Promise<T>>,
    private readonly atOnce: number,
  ) {}

  /** Capture `i`'s result (its error rethrown), once started here or by an earlier test. */
  async result(i: number): Promise<T> {
    for (let j = i; j < Math.min(i + this.atOnce, this.captures.length); j++) this.start(j);
    const settled = await this.started.get(i)!;
    if (!settled.ok) throw settled.error;
    return settled.value;
  }

  private start(i: number): void {
    if (this.started.has(i)) return;
    // Settled into a value: a capture that fails before its test asks for it is not an unhandled rejection.
    this.started.set(
      i,
      Promise.resolve()
        .then(() => this.captures[i]!())
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
    );
  }
}
