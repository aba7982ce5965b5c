import { devices as playwrightDevices } from 'playwright-core';

/** A device profile in the spec's shape (GET /device/list). */
export interface DeviceProfile {
  device_name: string;
  name: string;
  user_agent: string;
  screen_width: number;
  screen_height: number;
  device_scale: number;
  device_mobile: boolean;
  device_touch: boolean;
  device_landscape: boolean;
}

/** `iPhone 13 Pro Max landscape` → `iphone-13-pro-max-landscape`: a stable identifier safe in a URL. */
const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The catalogue, derived from Playwright's maintained device descriptors (real devices' viewports,
 * scale factors and user agents), so it follows upstream updates instead of being typed by hand.
 */
export const DEVICES: readonly DeviceProfile[] = Object.entries(playwrightDevices)
  .map(([name, d]) => ({
    device_name: slug(name),
    name,
    user_agent: d.userAgent,
    screen_width: d.viewport.width,
    screen_height: d.viewport.height,
    device_scale: d.deviceScaleFactor,
    device_mobile: d.isMobile,
    device_touch: d.hasTouch,
    device_landscape: / landscape$/i.test(name),
  }))
  .sort((a, b) => a.device_name.localeCompare(b.device_name));

const byKey = new Map<string, DeviceProfile>();
for (const d of DEVICES) {
  byKey.set(d.device_name, d);
  byKey.set(d.name.toLowerCase(), d);
}

/** Finds a device by its device_name or display name, ignoring case. */
export function findDevice(nameOrSlug: string): DeviceProfile | null {
  const key = nameOrSlug.trim().toLowerCase();
  return byKey.get(key) ?? byKey.get(slug(key)) ?? null;
}
