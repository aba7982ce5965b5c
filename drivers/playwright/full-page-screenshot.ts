import type { Page } from 'playwright-core';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot, fullPageClip } from '../shared/cdp-screenshots.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import { cdpSendFor } from './cdp-session.js';
import type { Engine } from './engine.js';

/**
 * The full scrollable page, cut at `maxHeight` CSS pixels (0 = no cut). The lazy-load scroll has
 * already run (drivers/shared/capture-pipeline.ts), so this only measures and captures. Chromium goes
 * straight through CDP (measured ~1.2x faster than Playwright's fullPage, same pixels).
 */
export async function fullPageScreenshot(page: Page, engine: Engine, maxHeight: number, hasTouch: boolean, encoding: PngEncoding): Promise<Buffer> {
  const size = await page.evaluate(documentSize);
  const viewport = page.viewportSize() ?? size;
  if (engine.name === 'chromium') return cdpFullPageScreenshot(await cdpSendFor(page), size, viewport, { maxHeight, hasTouch, encoding });
  // With fullPage, Playwright reads clip in document coordinates, which is what a max height needs.
  return page.screenshot({ fullPage: true, clip: fullPageClip(size, maxHeight), timeout: OUTPUT_TIMEOUT_MS });
}
