import type { CaptureSpec } from '../../core/capture-spec.js';
import { prepareFullPage, SCROLL_WATCH_KEY } from '../page-scripts/full-page-init.js';
import type { CaptureSession } from '../shared/capture-adapter.js';
import { applyBraveEmulation } from './brave-emulation.js';
import type { CaptureServices } from './capture-job.js';
import { applyProxyCredentials, grantFirstOriginPermissions } from './context-options.js';
import type { OpenedContext } from './context-opener.js';
import type { Engine } from './engine.js';
import { PlaywrightPage } from './playwright-page.js';

/**
 * One capture's fresh BrowserContext and its blank page. The page exists before the capture's own
 * settings are applied (it may have been opened ahead): everything below acts on its next navigation.
 */
export class PlaywrightSession implements CaptureSession {
  private readonly context: OpenedContext['context'];
  private readonly page: OpenedContext['page'];

  constructor(
    opened: OpenedContext,
    private readonly spec: CaptureSpec,
    private readonly engine: Engine,
    private readonly info: string,
    private readonly services: CaptureServices,
  ) {
    this.context = opened.context;
    this.page = opened.page;
  }

  async preparePage(): Promise<PlaywrightPage> {
    const { context, page, spec, engine } = this;
    await applyProxyCredentials(context, spec, engine);
    await grantFirstOriginPermissions(context, spec);
    if (spec.cookies.length > 0) {
      await context.addCookies(spec.cookies.map((cookie) => ({ name: cookie.name, value: cookie.value, url: spec.url })));
    }
    // Full page only: lazy images load with the page, and the lazy-load scroll learns whether it is needed.
    if (spec.size === 'page') await context.addInitScript(prepareFullPage, SCROLL_WATCH_KEY);
    if (engine.braveEmulation) await applyBraveEmulation(page, spec);
    // Brave blocks by itself (its shields); hide_ads asks the same of chrome and firefox.
    if (spec.hideAds || engine.braveEmulation) await this.services.adBlocker.enable(page);
    return new PlaywrightPage(page, spec, engine, this.info, this.services.videoEncoder, this.services.pngEncoding);
  }

  abort(): void {
    // Closing the context makes every pending Playwright call in it reject at once.
    void this.context.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}
