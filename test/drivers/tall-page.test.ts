import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { DEFAULT_CAPTURE_LIMITS, DEFAULT_MAX_PAGE_HEIGHT } from '../../core/contracts/browser-driver.js';
import type { BrowserName } from '../../core/capture-spec.js';
import type { Engine } from '../../drivers/playwright/engine.js';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { PlaywrightShots } from '../../drivers/playwright/take-shot.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { imageSize } from '../support/media-probe.js';
import { wrongRows } from '../support/tall-page.js';
import { TestSite } from '../support/test-site.js';

const WIDTH = 640;

/**
 * Full-page captures of very tall pages (issue 17, item 3): Firefox refuses one screenshot taller than
 * 65,535 px, so the driver tiles and stitches; every browser stops at the farm's maximum with a warning.
 * The pages are bands of colours checked row by row, so a seam or an offset between tiles fails.
 */
for (const [browser, name, launch] of [
  ['firefox', 'firefox', () => launchFirefox(loadConfig({}).agent.firefoxPath)],
  ['chrome', 'chromium', () => launchChromium(loadConfig({}).agent.chromiumPath)],
] as const) {
  describe(`full page of a very tall page on ${browser}`, function () {
    this.timeout(120_000);
    let site: TestSite;
    let instance: Browser;
    const engine: Engine = { browser: browser as BrowserName, name, braveEmulation: false, launchedDark: false };

    before(async function () {
      site = await TestSite.start();
      instance = await launch();
    });
    after(async function () {
      await instance?.close();
      await site?.close();
    });

    async function capture(pageHeight: number, maxPageHeight: number): Promise<{ png: Buffer; warnings: string[] }> {
      const context = await instance.newContext({ viewport: { width: WIDTH, height: 800 } });
      try {
        const page = await context.newPage();
        const url = site.url(`/tall?h=${pageHeight}`);
        await page.goto(url);
        const warnings: string[] = [];
        const png = await new PlaywrightShots(page, captureSpec(browser, url, { size: 'page' }), engine, 'fast', { ...DEFAULT_CAPTURE_LIMITS, maxPageHeight }).fullPage(warnings);
        return { png, warnings };
      } finally {
        await context.close();
      }
    }

    it('returns the whole 83,000 px page, every row where it belongs', async function () {
      const { png, warnings } = await capture(83_000, DEFAULT_MAX_PAGE_HEIGHT);
      expect(await imageSize(png)).to.deep.equal({ width: WIDTH, height: 83_000 });
      expect(await wrongRows(png, WIDTH / 2)).to.deep.equal([]);
      expect(warnings).to.deep.equal([]);
    });

    it('cuts a page taller than the maximum there, with a warning naming the setting', async function () {
      const { png, warnings } = await capture(30_000, 20_500);
      expect(await imageSize(png)).to.deep.equal({ width: WIDTH, height: 20_500 });
      expect(await wrongRows(png, 10)).to.deep.equal([]);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain('SHOTFARM_MAX_PAGE_HEIGHT').and.contain('20500');
    });
  });
}
