import type { Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { personIdentity, type BrowserVersion } from '../shared/person-user-agent.js';
import { cdpSessionFor } from './cdp-session.js';

/**
 * Makes a Chromium page send what a person's browser of its version sends (drivers/shared/person-user-agent.ts):
 * the User-Agent without `HeadlessChrome` (or the request's user_agent) and the client hints of the version,
 * naming `extraBrand` (Brave) beside Chromium when given. Set through the page's own CDP session, which stays
 * attached until the page closes (cdp-session.ts): Chromium drops the override when its session detaches.
 */
export async function applyPersonIdentity(page: Page, spec: CaptureSpec, extraBrand: string | null): Promise<void> {
  const cdp = await cdpSessionFor(page);
  const version = (await cdp.send('Browser.getVersion')) as BrowserVersion;
  await cdp.send('Emulation.setUserAgentOverride', {
    ...personIdentity(version, spec.userAgent, extraBrand, spec.device.mobile),
    // Re-sent because this call replaces the Accept-Language Playwright set from the locale.
    ...(spec.language ? { acceptLanguage: spec.language } : {}),
  });
}
