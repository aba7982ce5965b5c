import { expect } from 'chai';
import { loadConfig } from '../../core/config/load-config.js';
import { CONSENT_LOG_KEY } from '../../drivers/page-scripts/consent-engine.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { consentEngineSource } from '../../drivers/shared/consent-engine.js';
import { TestSite } from '../support/test-site.js';

/**
 * The consent engine's init script comes from the installed @duckduckgo/autoconsent (its Playwright build
 * and its compact rules): a package update that moved either file fails here, not in a capture.
 */
describe('consent engine source', function () {
  it('is assembled once per process from the installed package: bootstrap, rules, content script', async function () {
    const first = consentEngineSource();
    expect(consentEngineSource()).to.equal(first);
    const source = await first;
    expect(source).to.include('"compact":{');
    expect(source).to.include('autoconsentReceiveMessage');
    expect(source.length).to.be.above(200_000);
  });

  it('starts autoconsent in a page with the rules it was given, looking for a consent platform', async function () {
    const site = await TestSite.start();
    const browser = await launchChromium(loadConfig({}).agent.chromiumPath);
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: await consentEngineSource() });
      await page.goto(site.url('/target.html'));
      const log = await page.waitForFunction((key) => {
        const state = (window as unknown as Record<symbol, { lifecycle: string; looks: number } | undefined>)[Symbol.for(key)];
        return state && state.looks > 0 ? state : null;
      }, CONSENT_LOG_KEY);
      expect(await log.jsonValue()).to.include({ lifecycle: 'started', cmp: null, optOut: null });
    } finally {
      await browser.close();
      await site.close();
    }
  });
});
