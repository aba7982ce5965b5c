import type { Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import { installBraveIdentity } from '../page-scripts/brave-identity.js';
import { applyPersonIdentity } from './person-identity.js';

/**
 * Makes a Chromium page look like Brave to the site: the same identity a real Brave shows.
 * - User-Agent: Brave sends Chrome's UA string unchanged, so only the headless marker is removed.
 * - Client hints (Sec-CH-UA and navigator.userAgentData): brands list "Brave" next to "Chromium" and the
 *   version's GREASE brand, in the order Brave of that version sends them (person-identity.ts).
 * - navigator.brave.isBrave(): installed before any page script runs.
 * Network blocking (shields) is applied by the capture like hide_ads, see ad-blocker.ts.
 */
export async function applyBraveEmulation(page: Page, spec: CaptureSpec): Promise<void> {
  await page.addInitScript(installBraveIdentity);
  await applyPersonIdentity(page, spec, 'Brave');
}
