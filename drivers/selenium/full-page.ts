import type { WebDriver } from 'selenium-webdriver';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot } from '../shared/cdp-screenshots.js';
import type { CdpSession } from './cdp-session.js';
import { inPage } from './in-page.js';

/**
 * The full scrollable page, cut at `maxHeight` CSS pixels (0 = no cut), through the grid's CDP relay:
 * the capture the Playwright driver makes on Chromium (drivers/shared/cdp-screenshots.ts). WebDriver
 * itself has no full-page screenshot for Chrome.
 */
export async function fullPageScreenshot(driver: WebDriver, cdp: CdpSession, viewport: { width: number; height: number }, maxHeight: number, hasTouch: boolean, encoding: PngEncoding): Promise<Buffer> {
  const size = await inPage(driver, documentSize);
  return cdpFullPageScreenshot((method, params) => cdp.send(method, params), size, viewport, { maxHeight, hasTouch, encoding });
}
