import type { WebDriver } from 'selenium-webdriver';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import type { CdpSession } from './cdp-session.js';
import { inPage } from './in-page.js';

/**
 * The full scrollable page, cut at `maxHeight` CSS pixels (0 = no cut), with one CDP
 * Page.captureScreenshot with captureBeyondViewport: the call the Playwright driver makes on Chromium
 * (drivers/playwright/full-page-screenshot.ts), on the same document rectangle, hence the same pixels.
 * WebDriver itself has no full-page screenshot for Chrome.
 */
export async function fullPageScreenshot(driver: WebDriver, cdp: CdpSession, viewport: { width: number; height: number }, maxHeight: number, hasTouch: boolean, encoding: PngEncoding): Promise<Buffer> {
  const size = await inPage(driver, documentSize);
  const clip = { x: 0, y: 0, width: size.width, height: maxHeight > 0 ? Math.min(size.height, maxHeight) : size.height };
  const fitsViewport = size.width <= viewport.width && size.height <= viewport.height;
  const { data } = await cdp.send<{ data: string }>('Page.captureScreenshot', {
    format: 'png',
    optimizeForSpeed: encoding === 'fast',
    // Device pixels: the device-metrics override is chromedriver's (mobileEmulation), not on this session.
    clip: { ...clip, scale: size.deviceScale },
    captureBeyondViewport: !fitsViewport,
  });
  // Capturing beyond the viewport resets touch emulation in Chromium; it is turned back on, as Playwright does.
  if (!fitsViewport && hasTouch) await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true });
  return Buffer.from(data, 'base64');
}
