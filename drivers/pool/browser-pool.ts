import genericPool, { type Pool } from 'generic-pool';
import type { BrowserName } from '../../core/capture-spec.js';
import type { BrowserDriver, BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';

/** Sizes and lifetimes of one pool; passed in from config (nothing here reads the environment). */
export interface BrowserPoolOptions {
  /** browsers kept started even when idle */
  min: number;
  /** browsers started at most (the node's slots for this browser) */
  max: number;
  /** a browser is closed and replaced after this many captures (leaks in long-lived browsers) */
  recycleAfterJobs: number;
  /** an idle browser above `min` is closed after this many ms */
  idleTimeoutMs: number;
  /** how often idle browsers are checked for eviction, in ms */
  evictionIntervalMs: number;
  /** how long `acquire` waits for a free browser before failing, in ms */
  acquireTimeoutMs: number;
  /** told when a browser is replaced: it crashed, or it served its recycleAfterJobs captures (metrics) */
  onReplace?: (reason: 'crash' | 'recycle') => void;
}

/**
 * A pool of started browsers for ONE (driver, browser, launch variant), on generic-pool:
 * - borrow tests health (`testOnBorrow` → handle.healthy()); a sick browser is destroyed and replaced,
 * - a browser is recycled after `recycleAfterJobs` captures,
 * - a browser that disconnects (crash, killed process) is destroyed at once, borrowed or idle,
 * - idle browsers above `min` are evicted after `idleTimeoutMs`,
 * - close() waits for borrowed browsers to come back (drain), then closes them all (clear).
 */
export class BrowserPool {
  private readonly pool: Pool<BrowserHandle>;
  private readonly jobs = new WeakMap<BrowserHandle, number>();
  private readonly crashed = new WeakSet<BrowserHandle>();
  private closed = false;

  constructor(
    driver: BrowserDriver,
    readonly browser: BrowserName,
    readonly launchOptions: LaunchOptions,
    private readonly options: BrowserPoolOptions,
  ) {
    this.pool = genericPool.createPool<BrowserHandle>(
      {
        create: async () => {
          const handle = await driver.launch(browser, launchOptions);
          this.jobs.set(handle, 0);
          handle.onDisconnected?.(() => this.onCrash(handle));
          return handle;
        },
        destroy: (handle) => handle.close(),
        validate: async (handle) => !this.crashed.has(handle) && (await handle.healthy()),
      },
      {
        min: options.min,
        max: options.max,
        testOnBorrow: true,
        idleTimeoutMillis: options.idleTimeoutMs,
        evictionRunIntervalMillis: options.evictionIntervalMs,
        acquireTimeoutMillis: options.acquireTimeoutMs,
        // Reuse the most recently returned browser first: the others stay idle and can be evicted.
        fifo: false,
        autostart: true,
      },
    );
  }

  /** A crashed browser leaves the pool now; a borrowed one is removed when it is released. */
  private onCrash(handle: BrowserHandle): void {
    this.options.onReplace?.('crash');
    this.crashed.add(handle);
    if (!this.closed && !this.pool.isBorrowedResource(handle)) void this.sweepIdle().catch(() => undefined);
  }

  /**
   * generic-pool can destroy only borrowed resources, so idle ones are swept by borrowing every idle
   * browser once: validation destroys the crashed ones (and the pool starts replacements up to `min`),
   * the healthy ones go straight back.
   */
  private async sweepIdle(): Promise<void> {
    const held: BrowserHandle[] = [];
    try {
      const idle = this.pool.available;
      for (let i = 0; i < idle; i += 1) held.push(await this.pool.acquire());
    } finally {
      for (const handle of held) await this.pool.release(handle);
    }
  }

  /** Runs `work` with a pooled browser and gives it back (or replaces it) afterwards. */
  async use<T>(work: (handle: BrowserHandle) => Promise<T>): Promise<T> {
    const handle = await this.pool.acquire();
    try {
      return await work(handle);
    } finally {
      const done = (this.jobs.get(handle) ?? 0) + 1;
      this.jobs.set(handle, done);
      if (this.crashed.has(handle) || done >= this.options.recycleAfterJobs) {
        if (!this.crashed.has(handle)) this.options.onReplace?.('recycle');
        await this.pool.destroy(handle).catch(() => undefined);
      }
      else await this.pool.release(handle);
    }
  }

  /** Live counts, for the node's status and for tests. */
  stats(): { size: number; available: number; borrowed: number; pending: number } {
    return { size: this.pool.size, available: this.pool.available, borrowed: this.pool.borrowed, pending: this.pool.pending };
  }

  /**
   * Waits until `min` browsers are started. A browser that cannot start (a wrong binary path, a missing
   * library) rejects at its first failure: generic-pool itself would retry the launch forever and never
   * become ready, so an agent would hang at start instead of saying why.
   */
  ready(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const failed = (err: Error): void => {
        this.pool.removeListener('factoryCreateError', failed);
        reject(new Error(`${this.browser} could not be started: ${err.message}`, { cause: err }));
      };
      this.pool.on('factoryCreateError', failed);
      this.pool.ready().then(() => {
        this.pool.removeListener('factoryCreateError', failed);
        resolve();
      }, reject);
    });
  }

  /** Lets borrowed browsers finish, then closes every browser. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.drain();
    await this.pool.clear();
  }
}
