import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { withinOutputTime } from './output-timeout.js';
import type { BrowserEncoded } from './image-format.js';
import type { PageSize } from './page-height-cut.js';
import { CHROMIUM_TILE_DEVICE_PIXELS, tiledShot, tileRows } from './tiled-shot.js';

/** Sends one CDP command on the page's session (Playwright's CDPSession or the Selenium relay). */
export type CdpSend = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/** A document rectangle in CSS pixels. */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface LayoutMetrics {
  cssLayoutViewport: { pageX: number; pageY: number };
}

/**
 * One Chromium PNG screenshot of a document rectangle, as one CDP Page.captureScreenshot: the call
 * Playwright's page.screenshot ends in, minus its per-shot preparation (caret hiding in every frame,
 * waiting for fonts) and with the encoder effort ours to choose; test/drivers/cdp-screenshot-identity.test.ts
 * checks that the pixels are Playwright's. `scale` turns CSS pixels into device pixels on this session:
 * the device scale, since neither driver's own session holds the device-metrics override (Playwright's
 * session and chromedriver's do).
 */
async function captureClip(send: CdpSend, clip: Clip, scale: number, beyondViewport: boolean, encoding: PngEncoding, lossy: BrowserEncoded | null = null): Promise<Buffer> {
  const { data } = (await send('Page.captureScreenshot', {
    ...(lossy ? { format: lossy.format, quality: lossy.quality } : { format: 'png' }),
    optimizeForSpeed: encoding === 'fast',
    clip: { ...clip, scale },
    captureBeyondViewport: beyondViewport,
  })) as { data: string };
  return Buffer.from(data, 'base64');
}

/**
 * What the viewport shows: the viewport's rectangle at the layout viewport's scroll position, which is
 * how Playwright cuts its viewport screenshot. The scroll position comes from Page.getLayoutMetrics
 * rather than from script: an error page (unreachable site) has no script context that lasts long
 * enough to ask.
 */
export async function cdpViewportScreenshot(send: CdpSend, viewport: { width: number; height: number }, scale: number, encoding: PngEncoding, lossy: BrowserEncoded | null = null): Promise<Buffer> {
  const { cssLayoutViewport } = (await send('Page.getLayoutMetrics', {})) as LayoutMetrics;
  return captureClip(send, { x: cssLayoutViewport.pageX, y: cssLayoutViewport.pageY, ...viewport }, scale, false, encoding, lossy);
}

/**
 * The full scrollable page (`size` and device scale measured by page-scripts/document-size.ts, the
 * formula Playwright's fullPage uses, hence the same rectangle and pixels), its `area` from the top left
 * (page-height-cut.ts: the request's max height, the farm's maximum and pixel budget), captured beyond the
 * viewport when it does not fit: in one shot, or in tiles stitched (tiled-shot.ts) when it is larger than
 * one, each within the output time limit.
 */
export async function cdpFullPageScreenshot(
  send: CdpSend,
  size: PageSize,
  viewport: { width: number; height: number },
  area: { width: number; height: number },
  options: { hasTouch: boolean; encoding: PngEncoding },
): Promise<Buffer> {
  const fitsViewport = size.width <= viewport.width && size.height <= viewport.height;
  const shoot = (clip: Clip): Promise<Buffer> => withinOutputTime(captureClip(send, clip, size.deviceScale, !fitsViewport, options.encoding), 'the full-page screenshot');
  // The page's scripts are held while the tiles are taken, so every tile shows the same page: a page that
  // changes itself would otherwise meet itself at the seams, and one that grows every frame (fixtures'
  // endless-growth.html) took 16.8 s for 25 tiles as it grew from 1.2 to 4.5 million px, 9.1 s held.
  const tiled = area.height > tileRows(area.width, size.deviceScale, CHROMIUM_TILE_DEVICE_PIXELS);
  if (tiled) await withinOutputTime(send('Emulation.setScriptExecutionDisabled', { value: true }), 'holding the page still');
  let png: Buffer;
  try {
    png = await tiledShot({ x: 0, y: 0, ...area }, size.deviceScale, CHROMIUM_TILE_DEVICE_PIXELS, options.encoding, shoot);
  } finally {
    if (tiled) await withinOutputTime(send('Emulation.setScriptExecutionDisabled', { value: false }), 'releasing the page').catch(() => undefined);
  }
  // Capturing beyond the viewport resets touch emulation in Chromium; Playwright restores it the same way.
  if (!fitsViewport && options.hasTouch) await send('Emulation.setTouchEmulationEnabled', { enabled: true });
  return png;
}
