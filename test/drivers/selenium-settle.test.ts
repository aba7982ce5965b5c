import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { countOwnProcesses, SELENIUM_PROCESS, waitForOwnProcesses } from '../support/process-census.js';
import { TestSite } from '../support/test-site.js';
import { SETTLE_FIXTURES } from './settle-fixtures.js';

/** As settle.test.ts: the corpus settles ~1 s after load; the long-poll page costs the cap. */
const CAP_SECONDS = 2.5;

/**
 * The settle wait is one mechanism for both drivers (an init script and a page function): the same
 * corpus through the Selenium driver on a real grid, chrome only. Pixel checks only: settle.test.ts
 * compares the corpus with a raw loop's stable picture.
 */
describe('settle wait on the selenium driver', function () {
  let site: TestSite;
  let grid: SeleniumGrid;
  let handle: BrowserHandle;
  let processesBefore: number;

  before(async function () {
    this.timeout(120_000);
    processesBefore = await countOwnProcesses(SELENIUM_PROCESS, []);
    site = await TestSite.start();
    grid = await SeleniumGrid.start(localGridOptions());
    handle = await new SeleniumDriver({ ffmpegPath: 'ffmpeg', settleCapSeconds: CAP_SECONDS }).launch('chrome', { gridUrl: grid.url });
  });

  after(async function () {
    const group = grid?.pid;
    await handle?.close();
    await grid?.stop();
    await site?.close();
    expect(await waitForOwnProcesses(SELENIUM_PROCESS, group === undefined ? [] : [group], processesBefore, 15_000)).to.equal(processesBefore);
  });

  for (const fixture of SETTLE_FIXTURES) {
    it(`${fixture.name}: drawn by default, not with wait_until=load`, async function () {
      const settled = await handle.capture(captureSpec('chrome', site.url(fixture.path)), AbortSignal.timeout(30_000));
      expect(settled.warnings).to.deep.equal([]);
      expect(settled.timings).to.have.property('settle');
      expect(await fixture.drawn(settled.images[0]!)).to.equal(true);
      const atLoad = await handle.capture(captureSpec('chrome', site.url(fixture.path), { waitUntil: 'load' }), AbortSignal.timeout(30_000));
      expect(await fixture.drawn(atLoad.images[0]!)).to.equal(false);
    });
  }

  it('a page holding a permanent long-poll is captured at the cap, with a warning', async function () {
    const output = await handle.capture(captureSpec('chrome', site.url('/settle/long-poll.html')), AbortSignal.timeout(30_000));
    expect(output.warnings.join(' ')).to.match(/had not settled within 2\.5 s \(1 request in flight\)/);
    expect(output.timings.settle).to.be.at.least(CAP_SECONDS * 1000 - 50);
  });
});
