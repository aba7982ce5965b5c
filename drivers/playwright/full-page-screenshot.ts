import type { Page } from 'playwright-core';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { documentSize } from '../page-scripts/document-size.js';
import { cdpFullPageScreenshot, type Clip } from '../shared/cdp-screenshots.js';
import { OUTPUT_TIMEOUT_MS, withinOutputTime } from '../shared/output-timeout.js';
import { capturedHeight } from '../shared/page-height-cut.js';
import { stitchPngTiles } from '../shared/png-stitch.js';
import { cdpSendFor } from './cdp-session.js';
import type { Engine } from './engine.js';

/**
 * Firefox refuses a screenshot taller than 65,535 device pixels ("unsupported operation: 83000 exceeds
 * the maximum allowed screenshot height of 65535 pixels", measured on Firefox ESR at 1280 wide: 65,000
 * passes, 83,000 fails). Taller pages are taken in tiles of this many device pixels and stitched.
 * Measured with make bench-tall (1280×100,000): tiles of 16,384 px peaked node at +350 MB and took
 * 12.0 s; 8,192 px +166 MB, 12.2 s; 4,096 px +166 MB, 8.9 s with the browser tree 200 MB lower.
 */
const FIREFOX_TILE_DEVICE_PX = 4_096;
const FIREFOX_MAX_SHOT_DEVICE_PX = 65_535;

export interface FullPageOptions {
  /** the request's max_height in CSS pixels (0 = no cut) */
  maxHeight: number;
  /** the operator's cap in CSS pixels (SHOTFARM_MAX_PAGE_HEIGHT) */
  maxPageHeight: number;
  hasTouch: boolean;
  encoding: PngEncoding;
}

async function* firefoxTiles(page: Page, clip: Clip, tileHeight: number): AsyncGenerator<Buffer> {
  for (let y = clip.y; y < clip.y + clip.height; y += tileHeight) {
    const height = Math.min(tileHeight, clip.y + clip.height - y);
    yield await page.screenshot({ fullPage: true, clip: { ...clip, y, height }, timeout: OUTPUT_TIMEOUT_MS });
  }
}

/**
 * The full scrollable page, cut at the request's max height and at the operator's maximum (a cut the
 * request did not ask for adds a warning). The lazy-load scroll has already run
 * (drivers/shared/capture-pipeline.ts), so this only measures and captures. Chromium goes straight
 * through CDP (measured ~1.2x faster than Playwright's fullPage, same pixels) in one shot.
 * The output time limit holds for each browser call, not for the whole: a tiled page takes one
 * screenshot per tile (Firefox, 1280×100,000: over 30 s in all on two busy cores).
 */
export async function fullPageScreenshot(page: Page, engine: Engine, options: FullPageOptions, warnings: string[]): Promise<Buffer> {
  const size = await withinOutputTime(page.evaluate(documentSize), 'measuring the page');
  const viewport = page.viewportSize() ?? size;
  const height = capturedHeight(size.height, options.maxHeight, options.maxPageHeight, warnings);
  if (engine.name === 'chromium') {
    const send = await cdpSendFor(page);
    return withinOutputTime(cdpFullPageScreenshot(send, size, viewport, { ...options, maxHeight: height }), 'the full-page screenshot');
  }
  // With fullPage, Playwright reads clip in document coordinates, which is what a max height needs.
  const clip = { x: 0, y: 0, width: size.width, height };
  if (height * size.deviceScale <= FIREFOX_MAX_SHOT_DEVICE_PX) return page.screenshot({ fullPage: true, clip, timeout: OUTPUT_TIMEOUT_MS });
  return stitchPngTiles(firefoxTiles(page, clip, Math.floor(FIREFOX_TILE_DEVICE_PX / size.deviceScale)), options.encoding);
}
