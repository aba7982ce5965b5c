import type { CaptureSpec } from '../../core/capture-spec.js';

/**
 * The viewport a device describes: landscape turns a portrait size on its side. Browser-independent;
 * the same rule as drivers/playwright/context-options.ts `viewportOf`, which could import it from here.
 */
export function viewportOf(spec: CaptureSpec): { width: number; height: number } {
  const { width, height, landscape } = spec.device;
  return landscape && height > width ? { width: height, height: width } : { width, height };
}
