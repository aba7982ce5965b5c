import type { Browser } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { TestSite } from './test-site.js';

/** What a suite gets from useChromiumAndSite(), filled in by its `before` hook. */
export interface ChromiumAndSite {
  site: TestSite;
  browser: Browser;
}

/**
 * For suites that drive a page script or a screenshot call directly: the local test site and one warm
 * Debian Chromium with the service's flags, started before the suite and closed after it.
 */
export function useChromiumAndSite(): ChromiumAndSite {
  const held = {} as ChromiumAndSite;
  before(async function () {
    held.site = await TestSite.start();
    held.browser = await launchChromium(loadConfig({}).agent.chromiumPath);
  });
  after(async function () {
    await held.browser?.close();
    await held.site?.close();
  });
  return held;
}
