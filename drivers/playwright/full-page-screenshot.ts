import type { Page } from 'playwright-core';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot } from '../shared/cdp-screenshots.js';
import { OUTPUT_TIMEOUT_MS, withinOutputTime } from '../shared/output-timeout.js';
import { capturedArea } from '../shared/page-height-cut.js';
import { FIREFOX_TILE_DEVICE_PIXELS, tiledShot } from '../shared/tiled-shot.js';
import { cdpSendFor } from './cdp-session.js';
import type { Engine } from './engine.js';

export interface FullPageOptions {
  /** the request's max_height in CSS pixels (0 = no cut) */
  maxHeight: number;
  /** the farm's maximum height and pixel budget */
  limits: CaptureLimits;
  hasTouch: boolean;
  encoding: PngEncoding;
}

/**
 * The full scrollable page, cut at the request's max height, the operator's maximum height and the pixel
 * budget (a cut the request did not ask for adds a warning). The lazy-load scroll has already run
 * (drivers/shared/capture-pipeline.ts), so this only measures and captures. Chromium goes straight
 * through CDP (measured ~1.2x faster than Playwright's fullPage, same pixels). A page larger than one
 * tile is taken in tiles in every browser (drivers/shared/tiled-shot.ts: the browser's memory stays
 * bounded; Firefox cannot take one shot taller than 65,535 px at all). The output time limit holds for
 * each browser call, not for the whole (Firefox, 1280×100,000: over 30 s in all on two busy cores).
 */
export async function fullPageScreenshot(page: Page, engine: Engine, options: FullPageOptions, warnings: string[]): Promise<Buffer> {
  const size = await withinOutputTime(page.evaluate(documentSize), 'measuring the page');
  const viewport = page.viewportSize() ?? size;
  const area = capturedArea(size, viewport.height, options.maxHeight, options.limits, warnings);
  if (engine.name === 'chromium') return cdpFullPageScreenshot(await cdpSendFor(page), size, viewport, area, options);
  // With fullPage, Playwright reads clip in document coordinates, which is what a cut needs.
  return tiledShot({ x: 0, y: 0, ...area }, size.deviceScale, FIREFOX_TILE_DEVICE_PIXELS, options.encoding, (clip) => page.screenshot({ fullPage: true, clip, timeout: OUTPUT_TIMEOUT_MS }));
}
