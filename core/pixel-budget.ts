/**
 * The pixel budget of one capture: width × height × device_scale² together, in device pixels
 * (SHOTFARM_MAX_CAPTURE_MEGAPIXELS). Each limit alone (a 10,000 px viewport, a 100,000 px page, a device
 * scale of 5) was accepted, and together they made a 10,000 × 100,000 full page: one Chromium renderer
 * grew to 15.5 GB (issue 25). Create refuses a viewport above the budget; a full page above it is cut.
 *
 * The default, 128 megapixels, is the default width (1280 px) times the tallest page (100,000 px, the
 * default SHOTFARM_MAX_PAGE_HEIGHT), so no capture the farm took before at that width is cut, and it is
 * under sharp's own decoding limit (268 megapixels) that apps and monitor comparisons read images with.
 * Sized for a 4 GB agent with two slots: with the full page taken in tiles (drivers/shared/tiled-shot.ts),
 * a Chromium capture at the budget (10000 × 12,800 px) peaked at 1.11 GB of browser tree and +0.22 GB in
 * the node process that stitches (one shot took the tree to 2.55 GB), Firefox 1280 × 100,000 px at 1.28 GB,
 * so two slots hold ~2.5–3 GB; the PNG,
 * the one thing that still grows with the budget, is at most 4 bytes a pixel (512 MB for pure noise; pages
 * compress 10–50×). docs/operators.md ("Pixel budget and page memory") has the table.
 */
export const DEFAULT_MAX_CAPTURE_MEGAPIXELS = 128;

/** The device pixels of a rectangle of CSS pixels at a device scale. */
export function devicePixels(width: number, height: number, scale: number): number {
  return width * height * scale * scale;
}

/** Megapixels as the messages say them: whole above 10, one decimal below. */
export function megapixelText(pixels: number): string {
  const mp = pixels / 1_000_000;
  return mp >= 10 ? String(Math.round(mp)) : mp.toFixed(1);
}
