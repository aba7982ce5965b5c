import { expect } from 'chai';
import type { BrowserName } from '../../core/capture-spec.js';
import type { BrowserDriver, LaunchOptions } from '../../core/contracts/browser-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { near, pixel } from '../support/media-probe.js';
import { TestSite } from '../support/test-site.js';

/**
 * A full-page capture walks the inner scrolling panes beside the window (drivers/page-scripts/lazy-load-scroll.ts):
 * a feed inside an `overflow: auto` column whose images load by IntersectionObserver on the pane, and a
 * virtualised list; both are back at their top in the capture.
 */
describe('full pages with lazy content in inner panes', function () {
  this.timeout(180_000);
  let site: TestSite;
  let grid: SeleniumGrid;
  before(async function () {
    site = await TestSite.start();
    grid = await SeleniumGrid.start(localGridOptions());
  });
  after(async function () {
    await grid?.stop();
    await site?.close();
  });

  const cases: [string, () => BrowserDriver, BrowserName, () => LaunchOptions][] = [
    ['playwright × chrome', () => new PlaywrightDriver(), 'chrome', () => ({})],
    ['playwright × firefox', () => new PlaywrightDriver(), 'firefox', () => ({})],
    ['playwright × brave', () => new PlaywrightDriver(), 'brave', () => ({})],
    ['selenium × chrome', () => new SeleniumDriver(), 'chrome', () => ({ gridUrl: grid.url })],
  ];
  for (const [name, driver, browser, launch] of cases) {
    it(`${name}: every image of the feed in a pane loaded (0 skeletons), the pane and a virtualised list back at their top`, async function () {
      const handle = await driver().launch(browser, launch());
      try {
        const feed = await handle.capture(captureSpec(browser, site.url('/panes/feed.html'), { size: 'page', html: true }), AbortSignal.timeout(90_000));
        expect(feed.responseCode, feed.warnings.join('; ')).to.equal(200);
        for (let n = 0; n < 40; n += 1) expect(site.hits(`/tile.png?color=0000ff&n=${n}`), `post ${n}`).to.be.at.least(1);
        expect(feed.html?.match(/class="post skeleton"/g) ?? []).to.have.length(0);
        // The pane is back at its top: the first post's image right under the header.
        expect(near(await pixel(feed.images[0]!, 100, 150), [0, 0, 255])).to.equal(true);

        const list = await handle.capture(captureSpec(browser, site.url('/panes/virtual-list.html'), { size: 'page', html: true }), AbortSignal.timeout(90_000));
        expect(list.html).to.match(/data-renders="([2-9]|\d\d+)"/);
        // Row 0 (green) shows at the top: the list was put back.
        expect(near(await pixel(list.images[0]!, 100, 15), [0, 170, 0])).to.equal(true);
      } finally {
        await handle.close();
      }
    });
  }
});
