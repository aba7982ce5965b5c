import type { WebDriver } from 'selenium-webdriver';
import { navigationUrl, sourceDocument } from '../source/source-document.js';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { fullPageInitSource } from '../page-scripts/full-page-init.js';
import { pageBlocking } from '../shared/block-lists/request-blocker.js';
import type { CaptureSession } from '../shared/capture-adapter.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import type { CaptureServices } from './capture-job.js';
import { CdpSession } from './cdp-session.js';
import { DocumentResponse } from './document-response.js';
import { closeSession } from './open-session.js';
import { applyEmulation } from './page-emulation.js';
import { RequestInterceptor } from './request-interceptor.js';
import { SeleniumPage } from './selenium-page.js';

/** The session's CDP relay: the grid announces it as the `se:cdp` capability. */
async function cdpOf(driver: WebDriver): Promise<CdpSession> {
  const url = (await driver.getCapabilities()).get('se:cdp') as unknown;
  if (typeof url !== 'string' || url === '') {
    throw new Error('the grid offers no CDP relay for this session (se:cdp is missing; start it with --enable-cdp true): the selenium driver needs it');
  }
  return CdpSession.connect(url, OUTPUT_TIMEOUT_MS);
}

/**
 * One capture's fresh WebDriver session on the grid (the Selenium analogue of a fresh browser
 * context), listed in the handle's open sessions until it is closed.
 */
export class SeleniumSession implements CaptureSession {
  private cdp: CdpSession | null = null;

  constructor(
    private readonly driver: WebDriver,
    private readonly spec: CaptureSpec,
    private readonly services: CaptureServices,
    /** the handle's open sessions, so that closing the handle can end them */
    private readonly sessions: Set<WebDriver>,
  ) {
    sessions.add(driver);
  }

  async preparePage(): Promise<SeleniumPage> {
    const { driver, spec } = this;
    const capabilities = await driver.getCapabilities();
    const browserInfo = `chromium ${String(capabilities.get('browserVersion'))} (selenium grid)`;
    const cdp = await cdpOf(driver);
    this.cdp = cdp;
    await applyEmulation(cdp, spec);
    // Full page only: lazy images load with the page, and the lazy-load scroll learns whether it is needed.
    if (spec.size === 'page') await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: fullPageInitSource() });
    const blocking = await pageBlocking(spec, false, this.services.blockLists);
    await RequestInterceptor.start(cdp, navigationUrl(spec), spec.postData, blocking.requests, spec.source ? sourceDocument(spec.source) : null);
    return new SeleniumPage(driver, cdp, spec, browserInfo, new DocumentResponse(cdp), blocking, this.services.videoEncoder, this.services.pngEncoding, this.services.limits);
  }

  abort(): void {
    // Ending the session makes every pending WebDriver call fail; the CDP relay's pending calls fail at once
    // when its connection closes (the grid's ending of the session can take seconds on a busy machine).
    this.cdp?.close();
    void closeSession(this.driver);
  }

  async close(): Promise<void> {
    this.cdp?.close();
    await closeSession(this.driver);
    this.sessions.delete(this.driver);
  }
}
