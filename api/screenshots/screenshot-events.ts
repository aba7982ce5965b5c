import { EventEmitter } from 'node:events';
import type { JobQueue } from '../../core/contracts/job-queue.js';

/** What carries endings between the api replicas: the farm's queue (in-process when embedded, plain NATS when distributed). */
export type EndingsBus = Pick<JobQueue, 'announceEnded' | 'onEnded'>;

/**
 * Tells waiters (info?wait, render) that a screenshot left `processing`, in every api replica:
 * ScreenshotRecords, the only writer of a record's ending, announces it on the bus, and each replica's
 * listener wakes its own waiters. With two replicas behind a balancer, a render waiting on one wakes when
 * the other records the result (test/integration/render-replicas.test.ts). Waiting costs a listener, no query.
 */
export class ScreenshotEvents {
  private readonly emitter = new EventEmitter();
  private readonly stopListening: () => void;

  constructor(private readonly bus: EndingsBus) {
    // Every waiting request adds a listener for a while; there is no fixed bound to warn about.
    this.emitter.setMaxListeners(0);
    this.stopListening = bus.onEnded((ids) => {
      for (const id of ids) this.emitter.emit(String(id));
    });
  }

  /** These records ended (after the commit): every replica's waiters wake. */
  ended(ids: number[]): void {
    this.bus.announceEnded(ids);
  }

  /** How many requests wait for this screenshot now (a test knows its waiter is in place before ending the record). */
  waiting(id: number): number {
    return this.emitter.listenerCount(String(id));
  }

  /** Resolves when the screenshot finishes or the time is up (whichever comes first). */
  waitFor(id: number, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.emitter.off(String(id), done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.emitter.once(String(id), done);
      signal?.addEventListener('abort', done, { once: true });
      if (signal?.aborted) done();
    });
  }

  /**
   * Waits until the record ends or `ms` pass. The waiter is in place before `stillProcessing` reads the
   * status, so an ending recorded between the read and the wait is not missed.
   */
  async untilEnded(id: number, ms: number, gone: AbortSignal, stillProcessing: () => Promise<boolean>): Promise<void> {
    const seen = new AbortController();
    const waiting = this.waitFor(id, ms, AbortSignal.any([gone, seen.signal]));
    try {
      if (!(await stillProcessing())) seen.abort();
    } catch (err) {
      seen.abort();
      throw err;
    }
    await waiting;
  }

  /** Stops listening to the bus (the control plane's stop). */
  close(): void {
    this.stopListening();
  }
}
