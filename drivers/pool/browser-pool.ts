import genericPool, { type Pool } from 'generic-pool';
import type { BrowserName } from '../../core/capture-spec.js';
import type { BrowserDriver, BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';

/** Sizes and lifetimes of one pool; passed in from config (nothing here reads the environment). */
export interface BrowserPoolOptions {
  /** capture lanes kept ready even when idle (their browser stays started) */
  min: number;
  /** captures at once at most (the node's slots for this browser) */
  max: number;
  /**
   * captures one browser serves at once, each in its own context; more lanes start another browser.
   * SHOTFARM_CAPTURES_PER_BROWSER; the speed benchmark chose its default (README, "Speed benchmark").
   */
  capturesPerBrowser: number;
  /** a browser is closed and replaced after this many captures (leaks in long-lived browsers) */
  recycleAfterJobs: number;
  /**
   * an idle lane above `min` is dropped after this many ms; a browser without lanes is closed. The lanes
   * of `min` are never dropped for idleness (their browser stays warm, it is not closed and relaunched).
   */
  idleTimeoutMs: number;
  /** how often idle lanes are checked for eviction, in ms (0: never, idle lanes stay) */
  evictionIntervalMs: number;
  /** how long `acquire` waits for a free lane before failing, in ms */
  acquireTimeoutMs: number;
  /** told when a browser is replaced: it crashed, or it served its recycleAfterJobs captures (metrics) */
  onReplace?: (reason: 'crash' | 'recycle') => void;
}

/** One started browser and the lanes (captures at once) it hosts. */
interface SharedBrowser {
  handle: BrowserHandle;
  /** lanes of the pool on this browser, borrowed or idle */
  lanes: number;
  /** captures it has served */
  jobs: number;
  /** served its recycleAfterJobs or crashed: takes no new lane, closes when its last lane goes */
  retiring: boolean;
  crashed: boolean;
}

/** What the pool lends: one capture's place (a context) in a shared browser. */
interface Lane {
  readonly browser: SharedBrowser;
}

/**
 * A pool of capture lanes on started browsers for ONE (driver, browser, launch variant), on generic-pool.
 * A lane is a place for one capture at a time; up to `capturesPerBrowser` lanes share one browser, each
 * capture in a fresh context of its own. generic-pool manages the lanes:
 * - borrow tests health (`testOnBorrow` → handle.healthy()); a lane on a sick browser is dropped,
 * - a browser retires after `recycleAfterJobs` captures: its lanes are dropped as they come back,
 * - a browser that disconnects (crash, killed process) retires at once, its idle lanes are swept,
 * - idle lanes above `min` are evicted after `idleTimeoutMs` (generic-pool's soft idle timeout: its hard one
 *   would drop the `min` lanes too and relaunch their browser at once, a launch for nothing),
 * - a browser is closed when its last lane is dropped,
 * - close() waits for borrowed lanes to come back (drain), then closes every browser (clear).
 */
export class BrowserPool {
  private readonly pool: Pool<Lane>;
  private readonly browsers = new Set<SharedBrowser>();
  /** the launch in progress: lanes created meanwhile wait for it instead of launching their own */
  private launching: Promise<SharedBrowser> | null = null;
  private closed = false;

  constructor(
    private readonly driver: BrowserDriver,
    readonly browser: BrowserName,
    readonly launchOptions: LaunchOptions,
    private readonly options: BrowserPoolOptions,
  ) {
    this.pool = genericPool.createPool<Lane>(
      {
        create: () => this.openLane(),
        destroy: (lane) => this.dropLane(lane),
        validate: async (lane) => !lane.browser.retiring && (await lane.browser.handle.healthy()),
      },
      {
        min: options.min,
        max: options.max,
        testOnBorrow: true,
        softIdleTimeoutMillis: options.idleTimeoutMs,
        idleTimeoutMillis: Number.POSITIVE_INFINITY,
        evictionRunIntervalMillis: options.evictionIntervalMs,
        // Every idle lane is looked at on each run (generic-pool's default is 3): all of a burst's go together.
        numTestsPerEvictionRun: Math.max(options.max, 1),
        acquireTimeoutMillis: options.acquireTimeoutMs,
        // Reuse the most recently returned lane first: the others stay idle and can be evicted.
        fifo: false,
        autostart: true,
      },
    );
  }

  /** A lane on a live browser with room, or on a newly launched one. */
  private async openLane(): Promise<Lane> {
    for (;;) {
      const roomy = [...this.browsers].find((b) => !b.retiring && b.lanes < this.options.capturesPerBrowser);
      const browser = roomy ?? (await (this.launching ??= this.launch().finally(() => (this.launching = null))));
      // Several lanes may have waited for the same launch: the ones it has no room for look again.
      if (browser.retiring || browser.lanes >= this.options.capturesPerBrowser) continue;
      browser.lanes += 1;
      return { browser };
    }
  }

  private async launch(): Promise<SharedBrowser> {
    const handle = await this.driver.launch(this.browser, this.launchOptions);
    const browser: SharedBrowser = { handle, lanes: 0, jobs: 0, retiring: false, crashed: false };
    handle.onDisconnected?.(() => this.onCrash(browser));
    this.browsers.add(browser);
    return browser;
  }

  private async dropLane(lane: Lane): Promise<void> {
    const browser = lane.browser;
    browser.lanes -= 1;
    if (browser.lanes > 0) return;
    this.browsers.delete(browser);
    await browser.handle.close();
  }

  /** A crashed browser takes no more captures; its idle lanes are dropped now, borrowed ones when they come back. */
  private onCrash(browser: SharedBrowser): void {
    if (browser.crashed) return;
    browser.crashed = true;
    browser.retiring = true;
    this.options.onReplace?.('crash');
    if (!this.closed) void this.sweepIdle().catch(() => undefined);
  }

  /**
   * generic-pool can destroy only borrowed resources, so idle lanes are swept by borrowing every idle
   * lane once: validation drops the ones on retired browsers (and the pool opens replacements up to
   * `min`), the others go straight back.
   */
  private async sweepIdle(): Promise<void> {
    const held: Lane[] = [];
    try {
      const idle = this.pool.available;
      for (let i = 0; i < idle; i += 1) held.push(await this.pool.acquire());
    } finally {
      for (const lane of held) await this.pool.release(lane);
    }
  }

  /** Runs `work` with a pooled browser (one lane of it) and gives the lane back (or drops it) afterwards. */
  async use<T>(work: (handle: BrowserHandle) => Promise<T>): Promise<T> {
    const lane = await this.pool.acquire();
    try {
      return await work(lane.browser.handle);
    } finally {
      const browser = lane.browser;
      browser.jobs += 1;
      if (!browser.retiring && browser.jobs >= this.options.recycleAfterJobs) {
        browser.retiring = true;
        this.options.onReplace?.('recycle');
      }
      if (browser.retiring) await this.pool.destroy(lane).catch(() => undefined);
      else await this.pool.release(lane);
    }
  }

  /** Live counts, for the node's status and for tests. */
  stats(): { browsers: number; size: number; available: number; borrowed: number; pending: number } {
    return { browsers: this.browsers.size, size: this.pool.size, available: this.pool.available, borrowed: this.pool.borrowed, pending: this.pool.pending };
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

  /**
   * Starts a browser now unless one runs, rejecting at the first failure; the next lane opens on it. With
   * `min` 0, ready() launches nothing and a first use() of a browser that cannot start would have
   * generic-pool retry the launch forever: an agent checks its browsers with this before it takes jobs.
   */
  async launchFirst(): Promise<void> {
    if (this.browsers.size > 0) return;
    try {
      await (this.launching ??= this.launch().finally(() => (this.launching = null)));
    } catch (err) {
      throw new Error(`${this.browser} could not be started: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Lets borrowed lanes finish, then closes every browser. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.drain();
    await this.pool.clear();
  }
}
