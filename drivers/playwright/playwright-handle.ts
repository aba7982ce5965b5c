import type { Browser } from 'playwright-core';
import type { BrowserName, CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import type { ProcessMemoryWatch } from '../shared/process-memory-watch.js';
import { withTimeout } from '../shared/with-timeout.js';
import { runCapture, type CaptureServices } from './capture-job.js';
import { contextOptions } from './context-options.js';
import type { Engine } from './engine.js';
import type { CaptureContext, PreparedContexts } from './prepared-contexts.js';

/**
 * A health probe opens and closes an empty context: it proves the browser answers, not only that the
 * pipe is open. 5 s is far above the ~20 ms it takes on a working browser.
 */
const HEALTH_PROBE_TIMEOUT_MS = 5_000;
/**
 * The pool asks `healthy()` before every capture. A capture that finished in this browser within the
 * last 30 s already proved it answers, so only a browser idle for longer pays for the probe (a context
 * opened and closed: ~20–60 ms of browser time, which every capture used to pay). Crashes need no probe:
 * the disconnect is seen at once.
 */
const PROVEN_HEALTHY_MS = 30_000;
/**
 * A browser that does not close within 10 s is hung: we stop waiting so the pool can go on. Playwright
 * still holds the process and kills it when the node process exits.
 */
const CLOSE_TIMEOUT_MS = 10_000;

/** One launched Playwright browser; every capture gets its own context (runCapture). */
export class PlaywrightHandle implements BrowserHandle {
  private closing = false;
  /** when a capture last finished here (ms since the epoch): the browser answered then */
  private provenAt = 0;

  constructor(
    private readonly playwrightBrowser: Browser,
    private readonly engine: Engine,
    readonly info: string,
    private readonly services: CaptureServices,
    /** the memory ceiling of this browser's processes (null: none, a browser not launched here) */
    private readonly memory: ProcessMemoryWatch | null = null,
    /** the next captures' contexts made ahead (null: each capture makes its own) */
    private readonly prepared: PreparedContexts | null = null,
  ) {
    // A browser that went away took its prepared contexts along; their pending credentials go too.
    playwrightBrowser.once('disconnected', () => void prepared?.close());
  }

  get browser(): BrowserName {
    return this.engine.browser;
  }

  capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput> {
    if (spec.browser !== this.engine.browser) {
      return Promise.reject(new Error(`this handle runs ${this.engine.browser}, the spec asks for ${spec.browser}`));
    }
    const prepared = this.prepared;
    const open = prepared
      ? () => prepared.open(spec)
      : async (): Promise<CaptureContext> => ({ context: await this.playwrightBrowser.newContext(contextOptions(spec, this.engine)), page: null, release: () => undefined });
    prepared?.started();
    const run = (runSignal: AbortSignal): Promise<CaptureOutput> => runCapture(open, this.engine, this.info, spec, runSignal, this.services);
    return (this.memory ? this.memory.guard(signal, run) : run(signal))
      .then((output) => {
        this.provenAt = Date.now();
        return output;
      })
      .finally(() => prepared?.ended(spec));
  }

  async healthy(): Promise<boolean> {
    if (this.closing || !this.playwrightBrowser.isConnected()) return false;
    if (Date.now() - this.provenAt < PROVEN_HEALTHY_MS) return true;
    try {
      const probe = withTimeout(this.playwrightBrowser.newContext(), HEALTH_PROBE_TIMEOUT_MS, 'health probe timed out');
      await (await probe).close();
      this.provenAt = Date.now();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    // Their pending egress credentials are revoked too; the browser's own close would only end the contexts.
    await this.prepared?.close();
    await withTimeout(this.playwrightBrowser.close(), CLOSE_TIMEOUT_MS, 'browser close timed out').catch(() => undefined);
  }

  onDisconnected(listener: () => void): void {
    this.playwrightBrowser.once('disconnected', () => {
      if (!this.closing) listener();
    });
  }
}
