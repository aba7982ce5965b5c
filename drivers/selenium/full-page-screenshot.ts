import type { WebDriver } from 'selenium-webdriver';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot } from '../shared/cdp-screenshots.js';
import { withinOutputTime } from '../shared/output-timeout.js';
import { capturedArea } from '../shared/page-height-cut.js';
import type { CdpSession } from './cdp-session.js';
import { inPage } from './in-page.js';

/**
 * The full scrollable page, cut at the request's `maxHeight` CSS pixels (0 = no cut), at the farm's
 * maximum height and pixel budget (with a warning), through the grid's CDP relay: the capture the
 * Playwright driver makes on Chromium (drivers/shared/cdp-screenshots.ts, in tiles when larger than one).
 * WebDriver itself has no full-page screenshot for Chrome.
 */
export async function fullPageScreenshot(
  driver: WebDriver,
  cdp: CdpSession,
  viewport: { width: number; height: number },
  options: { maxHeight: number; limits: CaptureLimits; hasTouch: boolean; encoding: PngEncoding },
  warnings: string[],
): Promise<Buffer> {
  const size = await withinOutputTime(inPage(driver, documentSize), 'measuring the page');
  const area = capturedArea(size, viewport.height, options.maxHeight, options.limits, warnings);
  return cdpFullPageScreenshot((method, params) => cdp.send(method, params), size, viewport, area, options);
}
