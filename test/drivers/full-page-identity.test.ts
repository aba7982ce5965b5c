import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { fullPageScreenshot } from '../../drivers/playwright/full-page-screenshot.js';
import type { Engine } from '../../drivers/playwright/engine.js';
import { CHROMIUM_FLAGS } from '../../drivers/shared/chromium-flags.js';
import { imageSize, rawPixels } from '../support/media-probe.js';
import { TestSite } from '../support/test-site.js';

/** The CDP full-page capture must be a faster route to the SAME pixels as Playwright's fullPage. */
describe('chromium full-page capture through CDP', function () {
  let site: TestSite;
  let browser: Browser;
  const engine: Engine = { browser: 'chrome', name: 'chromium', braveEmulation: false, launchedDark: false };

  before(async function () {
    site = await TestSite.start();
    browser = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args: CHROMIUM_FLAGS });
  });

  after(async function () {
    await browser?.close();
    await site?.close();
  });

  for (const scale of [1, 2]) {
    it(`gives the pixels of Playwright's fullPage (device scale ${scale})`, async function () {
      const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: scale });
      try {
        const page = await context.newPage();
        await page.goto(site.url('/steps.html'));
        const ours = await fullPageScreenshot(page, engine, 0, false);
        // caret 'initial': Playwright would otherwise hide text carets, which the CDP route does not touch.
        const playwrights = await page.screenshot({ fullPage: true, caret: 'initial' });
        expect(await imageSize(ours)).to.deep.equal(await imageSize(playwrights));
        expect((await rawPixels(ours)).equals(await rawPixels(playwrights))).to.equal(true);
      } finally {
        await context.close();
      }
    });
  }

  it('gives the pixels of Playwright\'s fullPage clipped to a max height', async function () {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      const page = await context.newPage();
      await page.goto(site.url('/long.html'));
      const ours = await fullPageScreenshot(page, engine, 1500, false);
      const playwrights = await page.screenshot({ fullPage: true, caret: 'initial', clip: { x: 0, y: 0, width: 800, height: 1500 } });
      expect(await imageSize(ours)).to.deep.equal({ width: 800, height: 1500 });
      expect((await rawPixels(ours)).equals(await rawPixels(playwrights))).to.equal(true);
    } finally {
      await context.close();
    }
  });
});
