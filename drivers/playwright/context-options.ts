import type { BrowserContextOptions } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { viewportOf } from '../shared/viewport.js';
import type { Engine } from './engine.js';

/**
 * The BrowserContext options for one capture: everything Playwright can set per context.
 * Options an engine ignores are left out here and reported by unsupported-options.ts.
 */
export function contextOptions(spec: CaptureSpec, engine: Engine): BrowserContextOptions {
  const chromium = engine.name === 'chromium';
  const headers: Record<string, string> = {};
  for (const header of spec.headers) headers[header.name] = header.value;
  // BiDi navigation takes no referrer (see unsupported-options.ts); a header is the closest we get.
  if (!chromium && spec.referer) headers.Referer = spec.referer;
  return {
    viewport: viewportOf(spec),
    screen: viewportOf(spec),
    deviceScaleFactor: spec.device.scale,
    // isMobile and hasTouch exist only on Chromium; Firefox over BiDi silently ignores them.
    ...(chromium ? { isMobile: spec.device.mobile, hasTouch: spec.device.touch } : {}),
    ...(spec.userAgent ? { userAgent: spec.userAgent } : {}),
    // locale sets both Accept-Language and navigator.language(s).
    ...(spec.language ? { locale: spec.language } : {}),
    ...(spec.timezone ? { timezoneId: spec.timezone } : {}),
    // accuracy is in metres; 10 m is what a phone's GPS reports outdoors, a plausible fix for any page.
    ...(spec.geo ? { geolocation: { ...spec.geo, accuracy: 10 }, permissions: ['geolocation'] } : {}),
    // On Firefox prefers-color-scheme follows the launch pref, not this option.
    ...(chromium ? { colorScheme: spec.dark ? 'dark' : 'light' } : {}),
    ignoreHTTPSErrors: !spec.strictSsl,
    extraHTTPHeaders: headers,
    // A service worker answers requests from its own cache, out of reach of request interception,
    // which would let ads through and turn the POST navigation into a GET. Captures never need one.
    serviceWorkers: 'block',
    ...(spec.proxy ? { proxy: proxyOption(spec.proxy) } : {}),
  };
}

/**
 * The context's proxy (the agent's egress guard, or a country proxy). Its credentials go in their own
 * fields: the guard tells captures apart by them. Loopback goes through the proxy too: Chromium bypasses
 * it for loopback unless the bypass list says `<-loopback>` (Playwright adds that itself today, unless
 * PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set; saying it here does not depend on that).
 * Firefox needs its launch pref network.proxy.allow_hijacking_localhost, see launch-flags.ts. A page on
 * 127.0.0.1 must not escape the guard.
 */
function proxyOption(proxy: string): NonNullable<BrowserContextOptions['proxy']> {
  const url = new URL(proxy);
  return {
    server: `${url.protocol}//${url.host}`,
    bypass: '<-loopback>',
    ...(url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {}),
  };
}
