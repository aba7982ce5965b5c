import type { CaptureLimits } from '../../core/contracts/browser-driver.js';
import { devicePixels, megapixelText } from '../../core/pixel-budget.js';

/** A page's size in CSS pixels and its device scale (page-scripts/document-size.ts). */
export interface PageSize {
  width: number;
  height: number;
  deviceScale: number;
}

function warnOnce(warnings: string[], warning: string): void {
  if (!warnings.includes(warning)) warnings.push(warning); // once, however many shots a capture takes
}

/**
 * How much of the page a full-page capture takes, in CSS pixels: the page's height, cut at the
 * request's `max_height` (0 = no cut) and at the operator's maximum (SHOTFARM_MAX_PAGE_HEIGHT). A cut
 * the request did not ask for is a warning naming the setting, so the client knows why the picture ends.
 */
export function capturedHeight(pageHeight: number, requestedMax: number, maxPageHeight: number, warnings: string[]): number {
  const wanted = requestedMax > 0 ? Math.min(pageHeight, requestedMax) : pageHeight;
  if (wanted <= maxPageHeight) return wanted;
  warnOnce(warnings, `The page is ${pageHeight} px tall; the capture stops at ${maxPageHeight} px, the farm's maximum (SHOTFARM_MAX_PAGE_HEIGHT).`);
  return maxPageHeight;
}

/**
 * The rectangle of the page a full-page capture takes, in CSS pixels from the top left: capturedHeight,
 * then the pixel budget (width × height × device scale², SHOTFARM_MAX_CAPTURE_MEGAPIXELS) cuts the height
 * where it runs out, with a warning naming it. A page so wide that not even the viewport's height fits is
 * cut to a width that lets it (create refused a viewport above the budget, so that width is at least the
 * viewport's).
 */
export function capturedArea(size: PageSize, viewportHeight: number, requestedMax: number, limits: CaptureLimits, warnings: string[]): { width: number; height: number } {
  const height = capturedHeight(size.height, requestedMax, limits.maxPageHeight, warnings);
  const budget = limits.maxCapturePixels;
  const scale2 = size.deviceScale * size.deviceScale;
  if (devicePixels(size.width, height, size.deviceScale) <= budget) return { width: size.width, height };
  const width = Math.min(size.width, Math.max(1, Math.floor(budget / (Math.min(height, viewportHeight) * scale2))));
  const cut = { width, height: Math.min(height, Math.max(1, Math.floor(budget / (width * scale2)))) };
  warnOnce(
    warnings,
    `The page is ${size.width} × ${height} px at device scale ${size.deviceScale} (${megapixelText(devicePixels(size.width, height, size.deviceScale))} megapixels); ` +
      `the capture stops at ${cut.width} × ${cut.height} px, the farm's pixel budget of ${megapixelText(budget)} megapixels (SHOTFARM_MAX_CAPTURE_MEGAPIXELS).`,
  );
  return cut;
}
