import { withTimeout } from './with-timeout.js';

/**
 * The job's deadline (CaptureSpec.maxWait). Every wait in a capture asks it how long it may take, so
 * no wait can outlive the job. When the deadline passes the capture goes on with what the page shows;
 * only the caller's AbortSignal (a cancelled or timed-out job) stops it.
 */
export class Deadline {
  private readonly endsAt: number;

  constructor(
    milliseconds: number,
    readonly signal: AbortSignal,
  ) {
    this.endsAt = Date.now() + milliseconds;
  }

  /** milliseconds left, never negative */
  remaining(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  get passed(): boolean {
    return this.remaining() === 0;
  }

  /**
   * A timeout for one wait: at most `cap` ms and never past the deadline. Playwright reads
   * a timeout of 0 as "no timeout", so a passed deadline yields 1 ms, which fails at once.
   */
  timeout(cap = Number.POSITIVE_INFINITY): number {
    return Math.max(1, Math.min(cap, this.remaining()));
  }

  /** Throws the abort reason when the job was cancelled. */
  check(): void {
    this.signal.throwIfAborted();
  }

  /**
   * Sleeps `ms`, cut short by the deadline. Resolves with the milliseconds actually slept so the caller
   * can tell (and say in a warning) that a wait was shortened; rejects when the job is aborted.
   */
  async sleep(ms: number): Promise<number> {
    this.check();
    const wanted = Math.max(0, ms);
    const allowed = Math.min(wanted, this.remaining());
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(this.signal.reason);
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, allowed);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
    return Date.now() - started;
  }

  /** Races work that takes no timeout of its own against the deadline, capped at `cap` ms. */
  race<T>(work: Promise<T>, what: string, cap = Number.POSITIVE_INFINITY): Promise<T> {
    return withTimeout(work, this.timeout(cap), `${what} did not finish before max_wait`);
  }
}
