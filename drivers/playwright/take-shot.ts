import type { Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from './deadline.js';
import type { Engine } from './engine.js';
import { errorText } from './error-text.js';
import { fullPageScreenshot } from './full-page-screenshot.js';
import { OUTPUT_TIMEOUT_MS } from './output-timeout.js';

/** How long a `target` selector may take to appear, as the API promises (or less: the deadline). */
export const TARGET_WAIT_MS = 30_000;
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

/**
 * Takes the shots of one capture. Remembers a target that was not found, so later shots go straight
 * to the page capture and the fallback is reported once.
 */
export class ShotTaker {
  private targetAvailable: boolean;

  constructor(
    private readonly page: Page,
    private readonly spec: CaptureSpec,
    private readonly engine: Engine,
    private readonly warnings: string[],
  ) {
    this.targetAvailable = spec.target !== null;
  }

  async take(deadline: Deadline): Promise<Buffer> {
    if (this.targetAvailable && this.spec.target) {
      try {
        const element = this.page.locator(this.spec.target).first();
        await element.waitFor({ state: 'visible', timeout: deadline.timeout(TARGET_WAIT_MS) });
        return await element.screenshot({ timeout: OUTPUT_TIMEOUT_MS });
      } catch (error) {
        deadline.check();
        this.targetAvailable = false;
        this.warnings.push(`The target ${this.spec.target} was not found in time (${errorText(error)}); the ${this.spec.size === 'page' ? 'full page' : 'viewport'} was captured instead.`);
      }
    }
    if (this.spec.size === 'page') {
      const hasTouch = this.engine.name === 'chromium' && this.spec.device.touch;
      return withRepaintRetry(() => fullPageScreenshot(this.page, this.engine, this.spec.maxHeight, hasTouch));
    }
    return withRepaintRetry(() => this.page.screenshot({ timeout: OUTPUT_TIMEOUT_MS }));
  }
}
