import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import type { Clip } from './cdp-screenshots.js';
import { stitchPngTiles } from './png-stitch.js';

/**
 * The most device pixels one screenshot call takes: a larger full page is taken in tiles of at most this
 * many pixels and stitched (png-stitch.ts), so what the browser holds for a screenshot no longer grows
 * with the page. Measured on Chromium 10000 × 10000 and 1280 × 100,000 (the browser tree before the shot
 * ~0.8 GB, 50 ms sampling): one shot added 13.8 bytes a pixel (+1.4 GB and +1.3 GB; issue 25's
 * 10000 × 100,000 reached 15.5 GB); tiles of 5 megapixels added +0.15 GB either way, tiles of 16 megapixels
 * +0.35–0.42 GB, and took 0.8–1.2× the one shot's time. Firefox (tiles since issue 17) measured 1280 × 4,096
 * the best of 4,096 to 16,384 rows: the same size.
 */
export const TILE_DEVICE_PIXELS = 1280 * 4096;
/**
 * Firefox refuses a screenshot taller than 65,535 device pixels ("unsupported operation: 83000 exceeds the
 * maximum allowed screenshot height of 65535 pixels", Firefox ESR); a narrow page's tiles stay below it.
 */
const MAX_TILE_DEVICE_ROWS = 65_535;
/**
 * Tiles are a whole number of this many CSS rows: at any device scale given with two decimals (device_scale)
 * a tile is then a whole number of device rows, so tiles meet without a seam or a doubled row.
 */
const TILE_ROW_STEP = 100;

/** A tile's height in CSS pixels for a clip this wide at this device scale. */
export function tileRows(width: number, scale: number): number {
  const rows = Math.min(TILE_DEVICE_PIXELS / (width * scale * scale), MAX_TILE_DEVICE_ROWS / scale);
  return Math.max(TILE_ROW_STEP, Math.floor(rows / TILE_ROW_STEP) * TILE_ROW_STEP);
}

/**
 * The tiles from the top. The browser takes the next tile while the stitcher decodes and compresses this one
 * (never two shots at once: each resizes the page's view): 1280 × 100,000 px took 8.4 s without the overlap,
 * of which 2.3 s stitching. A tile taken for a stitch that failed meanwhile is dropped.
 */
async function* tilesOf(clip: Clip, rows: number, shoot: (clip: Clip) => Promise<Buffer>): AsyncGenerator<Buffer> {
  const tile = (y: number): Promise<Buffer> => shoot({ ...clip, y, height: Math.min(rows, clip.y + clip.height - y) });
  let next: Promise<Buffer> | null = tile(clip.y);
  for (let y = clip.y; next !== null; y += rows) {
    const current: Buffer = await next;
    next = y + rows < clip.y + clip.height ? tile(y + rows) : null;
    next?.catch(() => undefined); // awaited on the next round; unhandled only if the stitch stopped
    yield current;
  }
}

/**
 * A document rectangle as one PNG: one `shoot` when it fits in a tile, else tile by tile from the top,
 * stitched without ever holding the whole picture's pixels. `shoot` takes one rectangle in CSS pixels
 * (each call bounded in time by its driver); every browser's full page goes through here.
 */
export function tiledShot(clip: Clip, scale: number, encoding: PngEncoding, shoot: (clip: Clip) => Promise<Buffer>): Promise<Buffer> {
  const rows = tileRows(clip.width, scale);
  if (clip.height <= rows) return shoot(clip);
  return stitchPngTiles(tilesOf(clip, rows, shoot), encoding);
}
