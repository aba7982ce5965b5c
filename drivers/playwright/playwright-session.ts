import type { BrowserContext } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { prepareFullPage, SCROLL_WATCH_KEY } from '../page-scripts/full-page-init.js';
import { pageBlocking } from '../shared/block-lists/request-blocker.js';
import type { CaptureSession } from '../shared/capture-adapter.js';
import { applyBraveEmulation } from './brave-emulation.js';
import type { CaptureServices } from './capture-job.js';
import type { Engine } from './engine.js';
import { applyPersonIdentity } from './person-identity.js';
import { PlaywrightPage } from './playwright-page.js';
import type { CaptureContext } from './prepared-contexts.js';
import { routeThroughBlocker } from './request-blocking.js';

/** One capture's fresh BrowserContext (with its page when it was prepared ahead). */
export class PlaywrightSession implements CaptureSession {
  constructor(
    private readonly fresh: CaptureContext,
    private readonly spec: CaptureSpec,
    private readonly engine: Engine,
    private readonly info: string,
    private readonly services: CaptureServices,
  ) {}

  private get context(): BrowserContext {
    return this.fresh.context;
  }

  async preparePage(): Promise<PlaywrightPage> {
    const { context, spec, engine } = this;
    // Geolocation is granted to the requested URL's origin explicitly, before the first navigation. The
    // context-wide grant (context-options.ts) covers every origin a redirect or a step leads to, but on
    // Firefox (BiDi) Playwright applies it to an origin only once navigation to it has started, which races
    // a page that asks for the position while loading: the request then waits on a prompt nobody answers.
    // A source's document has an opaque origin, which no grant can name: the context-wide grant is its.
    if (spec.geo && !spec.source) await context.grantPermissions(['geolocation'], { origin: new URL(spec.url).origin });
    if (spec.cookies.length > 0) {
      await context.addCookies(spec.cookies.map((cookie) => ({ name: cookie.name, value: cookie.value, url: spec.url })));
    }
    // Full page only: lazy images load with the page, and the lazy-load scroll learns whether it is needed.
    // A context's init scripts also apply to a page it already has (a prepared one) from its next navigation.
    if (spec.size === 'page') await context.addInitScript(prepareFullPage, SCROLL_WATCH_KEY);
    const page = this.fresh.page ?? (await context.newPage());
    if (engine.braveEmulation) await applyBraveEmulation(page, spec);
    // A person's User-Agent and client hints by default (no `HeadlessChrome`); a request's user_agent is the
    // context's (context-options.ts). Firefox sends its own, which names no headless mode.
    else if (engine.name === 'chromium' && spec.userAgent === null) await applyPersonIdentity(page, spec, engine.browser === 'brave' ? 'Brave' : null);
    // Brave blocks ads and trackers by itself (its shields); the block options ask it of every browser.
    const blocking = await pageBlocking(spec, engine.braveEmulation, this.services.blockLists);
    if (blocking.requests) await routeThroughBlocker(page, blocking.requests, spec.url);
    return new PlaywrightPage(page, spec, engine, this.info, this.services.videoEncoder, this.services.pngEncoding, this.services.limits, blocking);
  }

  abort(): void {
    // Closing the context makes every pending Playwright call in it reject at once.
    void this.context
      .close()
      .catch(() => undefined)
      .finally(() => this.fresh.release());
  }

  /**
   * Nothing of a capture outlives it: its pages (the capture's and any popup it opened) are closed first,
   * without beforeunload, which stops their loads and requests, then the context. A page's unload
   * handlers still run while it closes; what they send goes through the context's proxy, whose
   * credentials the capture's end has revoked (407), or else through the browser's own proxy, the same
   * guard without credentials: nothing goes direct (launch-browser.ts).
   */
  async close(): Promise<void> {
    await Promise.all(this.context.pages().map((page) => page.close({ runBeforeUnload: false }).catch(() => undefined)));
    await this.context.close().catch(() => undefined);
    this.fresh.release();
  }
}
