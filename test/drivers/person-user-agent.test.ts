import { expect } from 'chai';
import { chromiumBrands } from '../../drivers/shared/person-user-agent.js';
import { useChromiumAndSite } from '../support/chromium-and-site.js';

/**
 * The brand lists shotfarm sends for chrome and brave (drivers/shared/person-user-agent.ts) are computed as
 * Chromium computes its own: here against the running Debian Chromium, left as it is (no override).
 */
describe("a person's client hints: the brand lists match the running Chromium's own", function () {
  const held = useChromiumAndSite();

  it('chromiumBrands gives the brands and full version list a plain Chromium reports', async function () {
    const context = await held.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(held.site.url('/readiness/tabs.html'));
      const own = await page.evaluate(async () => {
        const data = (navigator as Navigator & { userAgentData: { brands: unknown; getHighEntropyValues(h: string[]): Promise<{ fullVersionList: unknown; uaFullVersion: string }> } }).userAgentData;
        const high = await data.getHighEntropyValues(['fullVersionList', 'uaFullVersion']);
        return { brands: data.brands, fullVersionList: high.fullVersionList, fullVersion: high.uaFullVersion };
      });
      const major = own.fullVersion.split('.')[0] ?? '';
      expect(own.brands).to.deep.equal(chromiumBrands(major, null));
      expect(own.fullVersionList).to.deep.equal(chromiumBrands(own.fullVersion, null, true));
    } finally {
      await context.close();
    }
  });
});
