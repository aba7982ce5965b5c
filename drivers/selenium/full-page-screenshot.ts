import type { WebDriver } from 'selenium-webdriver';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot } from '../shared/cdp-screenshots.js';
import { capturedHeight } from '../shared/page-height-cut.js';
import type { CdpSession } from './cdp-session.js';
import { inPage } from './in-page.js';

/**
 * The full scrollable page, cut at the request's `maxHeight` CSS pixels (0 = no cut) and at the
 * operator's `maxPageHeight` (with a warning), through the grid's CDP relay: the capture the Playwright
 * driver makes on Chromium (drivers/shared/cdp-screenshots.ts). WebDriver itself has no full-page
 * screenshot for Chrome.
 */
export async function fullPageScreenshot(
  driver: WebDriver,
  cdp: CdpSession,
  viewport: { width: number; height: number },
  options: { maxHeight: number; maxPageHeight: number; hasTouch: boolean; encoding: PngEncoding },
  warnings: string[],
): Promise<Buffer> {
  const size = await inPage(driver, documentSize);
  const height = capturedHeight(size.height, options.maxHeight, options.maxPageHeight, warnings);
  return cdpFullPageScreenshot((method, params) => cdp.send(method, params), size, viewport, { ...options, maxHeight: height });
}
