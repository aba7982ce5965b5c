import type { Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { installBraveIdentity } from '../page-scripts/brave-identity.js';
import { cdpSessionFor } from './cdp-session.js';

/**
 * Makes a Chromium page look like Brave to the site: the same identity a real Brave shows.
 * - User-Agent: Brave sends Chrome's UA string unchanged, so only the headless marker is removed.
 * - Client hints (Sec-CH-UA and navigator.userAgentData): brands list "Brave" next to "Chromium",
 *   set through CDP Emulation.setUserAgentOverride, the only way to change the brand list.
 * - navigator.brave.isBrave(): installed before any page script runs.
 * Network blocking (shields) is applied by the capture like hide_ads, see ad-blocker.ts.
 */
export async function applyBraveEmulation(page: Page, spec: CaptureSpec): Promise<void> {
  await page.addInitScript(installBraveIdentity);
  const cdp = await cdpSessionFor(page);
  const { userAgent: defaultUserAgent, product } = (await cdp.send('Browser.getVersion')) as { userAgent: string; product: string };
  const userAgent = spec.userAgent ?? defaultUserAgent.replace('HeadlessChrome/', 'Chrome/');
  const fullVersion = product.split('/')[1] ?? '0.0.0.0';
  const major = fullVersion.split('.')[0] ?? '0';
  // Chromium adds a "GREASE" brand with a deliberately odd name so sites cannot hard-code the list;
  // "Not_A Brand" version 24 is the one Brave and Chrome send alongside version 12x+ builds.
  const grease = { brand: 'Not_A Brand', version: '24' };
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent,
    // Re-sent because this call replaces the Accept-Language Playwright set from the locale.
    ...(spec.language ? { acceptLanguage: spec.language } : {}),
    userAgentMetadata: {
      brands: [{ brand: 'Brave', version: major }, { brand: 'Chromium', version: major }, grease],
      fullVersionList: [
        { brand: 'Brave', version: fullVersion },
        { brand: 'Chromium', version: fullVersion },
        { ...grease, version: '24.0.0.0' },
      ],
      fullVersion,
      platform: 'Linux',
      platformVersion: '',
      architecture: 'x86',
      model: '',
      mobile: spec.device.mobile,
      bitness: '64',
    },
  });
}
