import { EventEmitter } from 'node:events';

/**
 * Tells waiters in this process that a screenshot left `processing`. ScreenshotRecords, the only writer
 * of a record's ending, runs in the API process, so an in-process emitter reaches every waiter.
 */
export class ScreenshotEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every `info?wait=` request adds a listener for a while; there is no fixed bound to warn about.
    this.emitter.setMaxListeners(0);
  }

  finished(id: number): void {
    this.emitter.emit(String(id));
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
      const timer = setTimeout(done, ms);
      this.emitter.once(String(id), done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
