import type { Page } from 'playwright-core';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import { cdpScreenshot, type Clip } from './cdp-screenshot.js';
import { cdpSessionFor } from './cdp-session.js';
import type { Engine } from './engine.js';

/**
 * Chromium: one CDP Page.captureScreenshot of the document rectangle with captureBeyondViewport. This
 * is what Playwright's fullPage does internally minus its per-shot preparation — measured ~1.2x faster
 * here — on the same rectangle, hence the same pixels.
 */
async function chromiumFullPage(page: Page, clip: Clip, fitsViewport: boolean, hasTouch: boolean, deviceScale: number, encoding: PngEncoding): Promise<Buffer> {
  const png = await cdpScreenshot(page, encoding, { clip, beyondViewport: !fitsViewport, deviceScale });
  // Capturing beyond the viewport resets touch emulation in Chromium; Playwright restores it the same way.
  if (!fitsViewport && hasTouch) await (await cdpSessionFor(page)).send('Emulation.setTouchEmulationEnabled', { enabled: true });
  return png;
}

/**
 * The full scrollable page, cut at `maxHeight` CSS pixels (0 = no cut). The lazy-load scroll has
 * already run (drivers/shared/capture-pipeline.ts), so this only measures and captures.
 */
export async function fullPageScreenshot(page: Page, engine: Engine, maxHeight: number, hasTouch: boolean, encoding: PngEncoding): Promise<Buffer> {
  const { deviceScale, ...size } = await page.evaluate(documentSize);
  const viewport = page.viewportSize() ?? size;
  const clip: Clip = { x: 0, y: 0, width: size.width, height: maxHeight > 0 ? Math.min(size.height, maxHeight) : size.height };
  const fitsViewport = size.width <= viewport.width && size.height <= viewport.height;
  if (engine.name === 'chromium') return chromiumFullPage(page, clip, fitsViewport, hasTouch, deviceScale, encoding);
  // With fullPage, Playwright reads clip in document coordinates, which is what a max height needs.
  return page.screenshot({ fullPage: true, clip, timeout: OUTPUT_TIMEOUT_MS });
}
