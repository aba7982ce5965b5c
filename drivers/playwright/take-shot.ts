import type { Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { DEFAULT_CAPTURE_LIMITS, type CaptureLimits, type PngEncoding } from '../../core/contracts/browser-driver.js';
import { OUTPUT_TIMEOUT_MS, withinOutputTime } from '../shared/output-timeout.js';
import { cdpViewportScreenshot } from '../shared/cdp-screenshots.js';
import { browserEncoded } from '../shared/image-format.js';
import type { ShotSource } from '../shared/shot-taker.js';
import { viewportOf } from '../shared/viewport.js';
import { cdpSendFor } from './cdp-session.js';
import type { Engine } from './engine.js';
import { fullPageScreenshot } from './full-page-screenshot.js';

/**
 * Chromium refuses a screenshot ("Unable to capture screenshot") of a page that has just swapped
 * renderer process and not painted yet, which happens after a failed navigation (its error page):
 * measured here in 3 of 10 captures, and every time a second try 200 ms later succeeded.
 */
const SCREENSHOT_ATTEMPTS = 3;
const SCREENSHOT_RETRY_PAUSE_MS = 200;

async function withRepaintRetry(shoot: () => Promise<Buffer>): Promise<Buffer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await shoot();
    } catch (error) {
      if (attempt >= SCREENSHOT_ATTEMPTS || !/Unable to capture screenshot/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, SCREENSHOT_RETRY_PAUSE_MS));
    }
  }
}

/** The pictures of a Playwright page (drivers/shared/shot-taker.ts decides which one a shot takes). */
export class PlaywrightShots implements ShotSource {
  constructor(
    private readonly page: Page,
    private readonly spec: CaptureSpec,
    private readonly engine: Engine,
    private readonly pngEncoding: PngEncoding,
    private readonly limits: CaptureLimits = DEFAULT_CAPTURE_LIMITS,
  ) {}

  async element(selector: string, timeoutMs: number): Promise<Buffer> {
    const element = this.page.locator(selector).first();
    await element.waitFor({ state: 'visible', timeout: timeoutMs });
    return element.screenshot({ timeout: OUTPUT_TIMEOUT_MS });
  }

  fullPage(warnings: string[]): Promise<Buffer> {
    const hasTouch = this.engine.name === 'chromium' && this.spec.device.touch;
    const options = { maxHeight: this.spec.maxHeight, limits: this.limits, hasTouch, encoding: this.pngEncoding };
    // Time-limited call by call inside (a tiled capture makes many calls).
    return withRepaintRetry(() => fullPageScreenshot(this.page, this.engine, options, warnings));
  }

  private async chromiumViewport(): Promise<Buffer> {
    return cdpViewportScreenshot(await cdpSendFor(this.page), viewportOf(this.spec), this.spec.device.scale, this.pngEncoding, browserEncoded(this.spec));
  }

  viewport(): Promise<Buffer> {
    // Chromium: straight through CDP, to choose the encoder effort (Playwright's call always compresses hard).
    // Our CDP session has no device-metrics override, so it asks for the device scale itself.
    if (this.engine.name === 'chromium') return withRepaintRetry(() => withinOutputTime(this.chromiumViewport(), 'the screenshot'));
    return withRepaintRetry(() => this.page.screenshot({ timeout: OUTPUT_TIMEOUT_MS }));
  }
}
