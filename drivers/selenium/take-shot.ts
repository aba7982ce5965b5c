import type { WebDriver } from 'selenium-webdriver';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { DEFAULT_CAPTURE_LIMITS, type CaptureLimits, type PngEncoding } from '../../core/contracts/browser-driver.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import { cdpViewportScreenshot } from '../shared/cdp-screenshots.js';
import { browserEncoded } from '../shared/image-format.js';
import type { ShotSource } from '../shared/shot-taker.js';
import { viewportOf } from '../shared/viewport.js';
import { withTimeout } from '../shared/with-timeout.js';
import type { CdpSession } from './cdp-session.js';
import { visibleElement } from './find-element.js';
import { fullPageScreenshot } from './full-page-screenshot.js';

/**
 * The pictures of a WebDriver session (drivers/shared/shot-taker.ts decides which one a shot takes):
 * the element with WebDriver's element screenshot, the full page and the viewport over CDP.
 */
export class SeleniumShots implements ShotSource {
  constructor(
    private readonly driver: WebDriver,
    private readonly cdp: CdpSession,
    private readonly spec: CaptureSpec,
    private readonly pngEncoding: PngEncoding,
    private readonly limits: CaptureLimits = DEFAULT_CAPTURE_LIMITS,
  ) {}

  async element(selector: string, timeoutMs: number): Promise<Buffer> {
    const element = await visibleElement(this.driver, selector, timeoutMs);
    return Buffer.from(await withTimeout(element.takeScreenshot(), OUTPUT_TIMEOUT_MS, 'the element screenshot timed out'), 'base64');
  }

  fullPage(warnings: string[]): Promise<Buffer> {
    const options = { maxHeight: this.spec.maxHeight, limits: this.limits, hasTouch: this.spec.device.touch, encoding: this.pngEncoding };
    // Time-limited call by call inside (a tiled capture makes many calls).
    return fullPageScreenshot(this.driver, this.cdp, viewportOf(this.spec), options, warnings);
  }

  async viewport(): Promise<Buffer> {
    // Over CDP rather than WebDriver's screenshot, to choose the encoder effort as the Playwright driver
    // does. The device-metrics override is chromedriver's (mobileEmulation), not on this session, so the
    // device scale is asked for explicitly.
    const shot = cdpViewportScreenshot((method, params) => this.cdp.send(method, params), viewportOf(this.spec), this.spec.device.scale, this.pngEncoding, browserEncoded(this.spec));
    return withTimeout(shot, OUTPUT_TIMEOUT_MS, 'the screenshot timed out');
  }
}
