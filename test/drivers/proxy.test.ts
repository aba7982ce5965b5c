import { expect } from 'chai';
import type { BrowserName } from '../../core/capture-spec.js';
import type { BrowserDriver, LaunchOptions } from '../../core/contracts/browser-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { ForwardProxy } from '../support/forward-proxy.js';
import { TestSite } from '../support/test-site.js';

/** Country routing through a proxy: the page's traffic really goes through the proxy the job names. */
describe('captures through a country proxy', function () {
  this.timeout(120_000);
  let site: TestSite;
  let proxy: ForwardProxy;
  let grid: SeleniumGrid;
  before(async () => {
    site = await TestSite.start();
    proxy = await ForwardProxy.start({ 'site.test': Number(new URL(site.url('/')).port) }, 'proxy-fr');
    grid = await SeleniumGrid.start(localGridOptions());
  });
  after(async () => {
    await grid?.stop();
    await proxy?.close();
    await site?.close();
  });

  const cases: [string, () => BrowserDriver, BrowserName, () => LaunchOptions][] = [
    ['playwright × chrome', () => new PlaywrightDriver(), 'chrome', () => ({})],
    ['playwright × firefox', () => new PlaywrightDriver(), 'firefox', () => ({})],
    ['playwright × brave', () => new PlaywrightDriver(), 'brave', () => ({})],
    ['selenium × chrome', () => new SeleniumDriver(), 'chrome', () => ({ gridUrl: grid.url })],
  ];
  for (const [name, driver, browser, launch] of cases) {
    it(`${name}: a page that only the proxy can reach loads, marked by the proxy`, async () => {
      const handle = await driver().launch(browser, launch());
      try {
        const before = proxy.forwarded;
        const port = new URL(site.url('/')).port;
        const output = await handle.capture({ ...captureSpec(browser, `http://site.test:${port}/echo`, { html: true }), proxy: proxy.url }, AbortSignal.timeout(60_000));
        expect(output.responseCode, output.warnings.join('; ')).to.equal(200);
        expect(output.html).to.include('proxy-fr');
        expect(proxy.forwarded).to.be.above(before);
      } finally {
        await handle.close();
      }
    });
  }

  it('without a proxy the same page cannot be reached (the test would prove nothing otherwise)', async () => {
    const handle = await new PlaywrightDriver().launch('chrome', {});
    try {
      const output = await handle.capture(captureSpec('chrome', `http://site.test:${new URL(site.url('/')).port}/echo`, {}), AbortSignal.timeout(60_000));
      expect(output.responseCode).to.equal(null);
    } finally {
      await handle.close();
    }
  });
});
