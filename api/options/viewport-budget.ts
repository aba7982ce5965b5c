import type { DeviceEmulation } from '../../core/capture-spec.js';
import { devicePixels, megapixelText } from '../../core/pixel-budget.js';

/** The create parameters that make the viewport, as a request may give them. */
interface ViewportParams {
  device_name?: string;
  screen_width?: number;
  screen_height?: number;
  device_scale?: number;
}

/**
 * A viewport above the pixel budget (SHOTFARM_MAX_CAPTURE_MEGAPIXELS) cannot be captured at all, not even
 * cut, so create refuses it: one message for each field that made it (the catalogue device, or the
 * screen_width, screen_height and device_scale the request gave). Nothing when it fits.
 */
export function viewportBudgetErrors(p: ViewportParams, device: Pick<DeviceEmulation, 'width' | 'height' | 'scale'>, maxCapturePixels: number): Record<string, string> {
  const pixels = devicePixels(device.width, device.height, device.scale);
  if (pixels <= maxCapturePixels) return {};
  const message =
    `makes a viewport of ${device.width} × ${device.height} px at device scale ${device.scale}: ${megapixelText(pixels)} megapixels, ` +
    `above the farm's pixel budget of ${megapixelText(maxCapturePixels)} megapixels (width × height × device_scale²)`;
  const fromCatalogue = p.device_name !== undefined && p.device_name !== '';
  const given = fromCatalogue ? ['device_name'] : (['screen_width', 'screen_height', 'device_scale'] as const).filter((name) => p[name] !== undefined);
  return Object.fromEntries((given.length > 0 ? given : ['screen_width', 'screen_height']).map((field) => [field, message]));
}
