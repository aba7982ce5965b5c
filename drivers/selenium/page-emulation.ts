import type { CaptureSpec } from '../../core/capture-spec.js';
import { personIdentity, type BrowserVersion } from '../shared/person-user-agent.js';
import type { CdpSession } from './cdp-session.js';

/**
 * Geolocation accuracy in metres: 10 m is what a phone's GPS reports outdoors, a plausible fix for any
 * page (the same value the Playwright driver uses).
 */
const GEO_ACCURACY_M = 10;

/**
 * What a session's capabilities cannot set, applied over CDP before the first navigation. The page
 * session stays attached for the whole capture, so the overrides hold until the session ends.
 */
export async function applyEmulation(cdp: CdpSession, spec: CaptureSpec): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Page.enable');
  if (spec.headers.length > 0) {
    const headers: Record<string, string> = {};
    for (const header of spec.headers) headers[header.name] = header.value;
    await cdp.send('Network.setExtraHTTPHeaders', { headers });
  }
  if (spec.cookies.length > 0) {
    await cdp.send('Network.setCookies', { cookies: spec.cookies.map((cookie) => ({ name: cookie.name, value: cookie.value, url: spec.url })) });
  }
  // A person's User-Agent and client hints by default, as the Playwright driver sends them (a request's
  // user_agent is the session's --user-agent switch, capabilities.ts). Accept-Language stays the profile's.
  if (spec.userAgent === null) {
    const version = await cdp.send<BrowserVersion>('Browser.getVersion');
    await cdp.send('Emulation.setUserAgentOverride', personIdentity(version, null, null, spec.device.mobile));
  }
  if (spec.timezone) await cdp.send('Emulation.setTimezoneOverride', { timezoneId: spec.timezone });
  if (spec.geo) {
    // Without an origin the grant covers every origin of the session's (fresh) browser.
    await cdp.sendToBrowser('Browser.grantPermissions', { permissions: ['geolocation'] });
    await cdp.send('Emulation.setGeolocationOverride', { ...spec.geo, accuracy: GEO_ACCURACY_M });
  }
  // Scrollbars take no layout width, as in Playwright's headless Chromium: an 800 px viewport then
  // captures an 800 px page, not 785 px of page beside a scrollbar.
  await cdp.send('Emulation.setScrollbarsHidden', { hidden: true });
  // A service worker answers requests from its own cache, out of reach of request interception (ads,
  // the POST navigation). Captures never need one.
  await cdp.send('Network.setBypassServiceWorker', { bypass: true });
}
