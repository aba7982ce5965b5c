import type { WebDriver } from 'selenium-webdriver';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from '../playwright/deadline.js';
import { errorText } from '../playwright/error-text.js';
import { OUTPUT_TIMEOUT_MS } from '../playwright/output-timeout.js';
import { TARGET_WAIT_MS } from '../playwright/take-shot.js';
import { withTimeout } from '../playwright/with-timeout.js';
import { viewportOf } from '../shared/viewport.js';
import type { CdpSession } from './cdp-session.js';
import { visibleElement } from './find-element.js';
import { fullPageScreenshot } from './full-page.js';

/**
 * Takes the shots of one capture, as drivers/playwright/take-shot.ts does: the target element when it
 * shows up in time (else the page, with one warning, and later shots go straight to the page), the
 * full page over CDP, or the viewport with WebDriver's own screenshot.
 */
export class ShotTaker {
  private targetAvailable: boolean;

  constructor(
    private readonly driver: WebDriver,
    private readonly cdp: CdpSession,
    private readonly spec: CaptureSpec,
    private readonly warnings: string[],
  ) {
    this.targetAvailable = spec.target !== null;
  }

  async take(deadline: Deadline): Promise<Buffer> {
    if (this.targetAvailable && this.spec.target) {
      try {
        const element = await visibleElement(this.driver, this.spec.target, deadline.timeout(TARGET_WAIT_MS));
        return Buffer.from(await withTimeout(element.takeScreenshot(), OUTPUT_TIMEOUT_MS, 'the element screenshot timed out'), 'base64');
      } catch (error) {
        deadline.check();
        this.targetAvailable = false;
        this.warnings.push(`The target ${this.spec.target} was not found in time (${errorText(error)}); the ${this.spec.size === 'page' ? 'full page' : 'viewport'} was captured instead.`);
      }
    }
    if (this.spec.size === 'page') {
      return withTimeout(
        fullPageScreenshot(this.driver, this.cdp, viewportOf(this.spec), this.spec.maxHeight, this.spec.device.touch),
        OUTPUT_TIMEOUT_MS,
        'the full-page screenshot timed out',
      );
    }
    return Buffer.from(await withTimeout(this.driver.takeScreenshot(), OUTPUT_TIMEOUT_MS, 'the screenshot timed out'), 'base64');
  }
}
