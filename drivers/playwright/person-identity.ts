import type { Browser, Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { personIdentity, type BrowserVersion } from '../shared/person-user-agent.js';
import { cdpSessionFor } from './cdp-session.js';

/**
 * A browser's version does not change while it runs: asked once per browser, not once per capture (a CDP
 * round trip on every capture's prepare phase, before the page may even start loading).
 */
const versions = new WeakMap<Browser, Promise<BrowserVersion>>();

/**
 * Makes a Chromium page send what a person's browser of its version sends (drivers/shared/person-user-agent.ts):
 * the User-Agent without `HeadlessChrome` (or the request's user_agent) and the client hints of the version,
 * naming `extraBrand` (Brave) beside Chromium when given. Set through the page's own CDP session, which stays
 * attached until the page closes (cdp-session.ts): Chromium drops the override when its session detaches.
 */
export async function applyPersonIdentity(page: Page, spec: CaptureSpec, extraBrand: string | null): Promise<void> {
  const cdp = await cdpSessionFor(page);
  const browser = page.context().browser();
  let version = browser ? versions.get(browser) : undefined;
  if (!version) {
    version = cdp.send('Browser.getVersion') as Promise<BrowserVersion>;
    if (browser) {
      versions.set(browser, version);
      // A failed ask is not kept: the next capture asks again.
      version.catch(() => versions.delete(browser));
    }
  }
  await cdp.send('Emulation.setUserAgentOverride', {
    ...personIdentity(await version, spec.userAgent, extraBrand, spec.device.mobile),
    // Re-sent because this call replaces the Accept-Language Playwright set from the locale.
    ...(spec.language ? { acceptLanguage: spec.language } : {}),
  });
}
