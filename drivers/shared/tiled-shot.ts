import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import type { Clip } from './cdp-screenshots.js';
import { stitchPngTiles } from './png-stitch.js';

/**
 * The most device pixels one Chromium screenshot call takes: a larger full page is taken in tiles of at
 * most this many pixels and stitched (png-stitch.ts), so what the browser holds for a screenshot no longer
 * grows with the page. Measured on Chromium (the browser tree ~0.8 GB before the shot, 50 ms sampling):
 * one shot added 13.8 bytes a pixel (10000 × 10000: +1.4 GB; 1280 × 100,000: +1.3 GB; issue 25's
 * 10000 × 100,000 reached 15.5 GB). Each tile lays out the whole document again, so on 1280 × 100,000 px
 * (scripts held) tiles of 4,000 rows took 8.5 s and +0.12 GB, 8,000 rows 6.1 s and +0.21 GB; on a page
 * grown to 1.1 million px 8.1 s and 4.6 s (+0.25 GB), where one shot took 4.4 s and +1.6 GB.
 */
export const CHROMIUM_TILE_DEVICE_PIXELS = 1280 * 8192;
/**
 * Firefox's tile (issue 17, make bench-tall at 1280 × 100,000): tiles of 4,096 rows took 8.9 s with the
 * browser tree 200 MB lower than 8,192 rows (12.2 s) or 16,384 (12.0 s).
 */
export const FIREFOX_TILE_DEVICE_PIXELS = 1280 * 4096;
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

/** A tile's height in CSS pixels for a clip this wide at this device scale, tiles of at most `tilePixels` device pixels. */
export function tileRows(width: number, scale: number, tilePixels: number): number {
  const rows = Math.min(tilePixels / (width * scale * scale), MAX_TILE_DEVICE_ROWS / scale);
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
 * A document rectangle as one PNG: one `shoot` when it fits in a tile of `tilePixels` device pixels, else
 * tile by tile from the top, stitched without ever holding the whole picture's pixels. `shoot` takes one
 * rectangle in CSS pixels (each call bounded in time by its driver); every browser's full page goes
 * through here.
 */
export function tiledShot(clip: Clip, scale: number, tilePixels: number, encoding: PngEncoding, shoot: (clip: Clip) => Promise<Buffer>): Promise<Buffer> {
  const rows = tileRows(clip.width, scale, tilePixels);
  if (clip.height <= rows) return shoot(clip);
  return stitchPngTiles(tilesOf(clip, rows, shoot), encoding);
}
