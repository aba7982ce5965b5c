import type { BrowserName, CaptureOutput, CaptureSpec } from '../core/capture-spec.js';
import type { BrowserDriver, LaunchOptions, PreparedEgress } from '../core/contracts/browser-driver.js';
import { BrowserPool } from '../drivers/pool/browser-pool.js';

export interface PoolSettings {
  /** captures at once on this node: the most browsers one pool may start */
  slots: number;
  /** captures one browser serves at once (each in its own context) */
  capturesPerBrowser: number;
  recycleAfterJobs: number;
  /** a browser above the warm minimum is closed after this many idle seconds */
  poolIdleSeconds: number;
  /** browsers of each offered browser kept started while idle (SHOTFARM_POOL_WARM_BROWSERS) */
  warmBrowsers: number;
  /** a real Brave binary, if the node has one */
  bravePath: string | null;
  /** the Selenium Grid the selenium driver opens its sessions on */
  gridUrl: string | null;
  /**
   * The egress guard's address as every browser's own proxy (LaunchOptions.egressProxy), or null when SSRF
   * protection is off. Asked at each launch: the guard is started before the first browser, not before the pools.
   */
  egressProxy?: (() => string) | null;
  /** the egress guard's pending credentials for contexts made ahead (LaunchOptions.prepareEgress), or null */
  prepareEgress?: (() => PreparedEgress) | null;
  /** told when a pooled browser is replaced (metrics) */
  onReplace?: (browser: BrowserName, reason: 'crash' | 'recycle') => void;
}

/** Waiting this long for a free browser means every slot is stuck: fail the job so it is retried. */
const ACQUIRE_TIMEOUT_MS = 120_000;
/** How often idle browsers above the minimum are looked at for eviction, at most. */
const EVICTION_INTERVAL_MS = 30_000;
/**
 * The eviction check runs four times per idle timeout (capped at EVICTION_INTERVAL_MS): a browser closes
 * at most a quarter of the timeout late, so with a 30 s timeout the memory is back within ~38 s of the last capture.
 */
const evictionIntervalMs = (idleSeconds: number): number => Math.min(EVICTION_INTERVAL_MS, (idleSeconds * 1000) / 4);

/**
 * One browser pool per (browser, launch variant) on this node. Firefox's dark mode is a browser pref,
 * so dark Firefox captures get a pool of their own; every other option is per context.
 * The main pool of each browser keeps `warmBrowsers` browsers started while idle; the others a burst
 * started close after `poolIdleSeconds` without work (an idle Chromium held about 0.6 GB of RSS, make bench-idle). Dark Firefox
 * keeps none: it is rare.
 */
export class BrowserPools {
  private readonly pools = new Map<string, BrowserPool>();

  constructor(
    private readonly driver: BrowserDriver,
    private readonly browsers: BrowserName[],
    private readonly settings: PoolSettings,
  ) {}

  private variant(spec: Pick<CaptureSpec, 'browser' | 'dark'>): { key: string; launch: LaunchOptions; warm: boolean } {
    const launch: LaunchOptions = this.settings.gridUrl ? { gridUrl: this.settings.gridUrl } : {};
    if (spec.browser === 'brave' && this.settings.bravePath) launch.executablePath = this.settings.bravePath;
    if (this.settings.egressProxy) launch.egressProxy = this.settings.egressProxy();
    if (this.settings.prepareEgress) launch.prepareEgress = this.settings.prepareEgress;
    if (spec.browser === 'firefox' && spec.dark) return { key: 'firefox:dark', launch: { ...launch, dark: true }, warm: false };
    return { key: spec.browser, launch, warm: true };
  }

  private poolFor(spec: Pick<CaptureSpec, 'browser' | 'dark'>): BrowserPool {
    const { key, launch, warm } = this.variant(spec);
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new BrowserPool(this.driver, spec.browser, launch, {
        // min counts lanes: the warm browsers' every lane, so no lane of theirs is idle-evicted.
        min: warm ? Math.min(this.settings.warmBrowsers * this.settings.capturesPerBrowser, this.settings.slots) : 0,
        max: this.settings.slots,
        capturesPerBrowser: this.settings.capturesPerBrowser,
        recycleAfterJobs: this.settings.recycleAfterJobs,
        idleTimeoutMs: this.settings.poolIdleSeconds * 1000,
        evictionIntervalMs: evictionIntervalMs(this.settings.poolIdleSeconds),
        acquireTimeoutMs: ACQUIRE_TIMEOUT_MS,
        onReplace: (reason) => this.settings.onReplace?.(spec.browser, reason),
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  /**
   * Starts each offered browser once and reports what really runs (name and version); the warm minimum
   * stays started, a browser beyond it closes after the idle timeout like any other.
   */
  async start(): Promise<{ name: BrowserName; version: string }[]> {
    const out: { name: BrowserName; version: string }[] = [];
    try {
      for (const browser of this.browsers) {
        const pool = this.poolFor({ browser, dark: false });
        await pool.ready();
        await pool.launchFirst();
        out.push({ name: browser, version: await pool.use(async (h) => h.info) });
      }
    } catch (err) {
      // Stop the pools' background relaunching: the agent is not starting.
      await this.close().catch(() => undefined);
      throw err;
    }
    return out;
  }

  capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput> {
    if (!this.browsers.includes(spec.browser)) return Promise.reject(new Error(`this node does not offer ${spec.browser}`));
    return this.poolFor(spec).use((handle) => handle.capture(spec, signal));
  }

  /** Browsers started per pool, for metrics. */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.pools].map(([key, pool]) => [key, pool.stats().browsers]));
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }
}
