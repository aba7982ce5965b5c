import type { CaptureSpec } from '../../core/capture-spec.js';

/** The viewport a device describes: landscape turns a portrait size on its side. */
export function viewportOf(spec: CaptureSpec): { width: number; height: number } {
  const { width, height, landscape } = spec.device;
  return landscape && height > width ? { width: height, height: width } : { width, height };
}
