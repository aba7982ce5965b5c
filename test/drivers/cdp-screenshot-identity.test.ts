import { expect } from 'chai';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { DEFAULT_CAPTURE_LIMITS, PNG_ENCODINGS, type PngEncoding } from '../../core/contracts/browser-driver.js';
import { fullPageScreenshot } from '../../drivers/playwright/full-page-screenshot.js';
import type { Engine } from '../../drivers/playwright/engine.js';
import { PlaywrightShots } from '../../drivers/playwright/take-shot.js';
import { CHROMIUM_TILE_DEVICE_PIXELS, tileRows } from '../../drivers/shared/tiled-shot.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { useChromiumAndSite } from '../support/chromium-and-site.js';
import { imageSize, rawPixels } from '../support/media-probe.js';

/**
 * The CDP screenshots (viewport and full page, either PNG encoder effort) must be faster routes to the
 * SAME pixels as Playwright's page.screenshot.
 */
describe("chromium screenshots through CDP give Playwright's pixels", function () {
  const env = useChromiumAndSite();
  const engine: Engine = { browser: 'chrome', name: 'chromium', braveEmulation: false, launchedDark: false };

  async function onPage(path: string, options: BrowserContextOptions, compare: (page: Page) => Promise<void>): Promise<void> {
    const context = await env.browser.newContext(options);
    try {
      const page = await context.newPage();
      await page.goto(env.site.url(path));
      await compare(page);
    } finally {
      await context.close();
    }
  }

  /** The Playwright driver's viewport shot of a page opened with this size and scale. */
  function viewportShot(page: Page, scale: number, encoding: PngEncoding): Promise<Buffer> {
    const { width, height } = page.viewportSize()!;
    const spec = captureSpec('chrome', page.url(), { device: { name: null, width, height, scale, mobile: false, touch: false, landscape: false } });
    return new PlaywrightShots(page, spec, engine, encoding).viewport();
  }

  async function expectSamePixels(ours: Buffer, playwrights: Buffer): Promise<void> {
    expect(await imageSize(ours)).to.deep.equal(await imageSize(playwrights));
    expect((await rawPixels(ours)).equals(await rawPixels(playwrights))).to.equal(true);
  }

  for (const encoding of PNG_ENCODINGS) {
    for (const scale of [1, 2]) {
      it(`full page, ${encoding} encoding, device scale ${scale}`, async function () {
        await onPage('/steps.html', { viewport: { width: 800, height: 600 }, deviceScaleFactor: scale }, async (page) => {
          await page.locator('#late').waitFor(); // the page shows it 1 s after load: both shots must see the same page
          const ours = await fullPageScreenshot(page, engine, { maxHeight: 0, limits: DEFAULT_CAPTURE_LIMITS, hasTouch: false, encoding }, []);
          // caret 'initial': Playwright would otherwise hide text carets, which the CDP route does not touch.
          await expectSamePixels(ours, await page.screenshot({ fullPage: true, caret: 'initial' }));
        });
      });

      it(`viewport, ${encoding} encoding, device scale ${scale}, page scrolled`, async function () {
        await onPage('/long.html', { viewport: { width: 800, height: 600 }, deviceScaleFactor: scale }, async (page) => {
          await page.evaluate(() => window.scrollTo(0, 1700)); // a step may have scrolled: the shot shows what is in view
          await expectSamePixels(await viewportShot(page, scale, encoding), await page.screenshot({ caret: 'initial' }));
        });
      });
    }
  }

  it('viewport of an emulated phone in landscape (mobile, touch, scale 3)', async function () {
    const options = { viewport: { width: 700, height: 400 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
    await onPage('/env.html', options, async (page) => {
      await expectSamePixels(await viewportShot(page, 3, 'fast'), await page.screenshot({ caret: 'initial' }));
    });
  });

  // 1600 px wide, long.html's 5,000 px are 2 tiles at scale 1.5 and 4 at scale 2 (drivers/shared/tiled-shot.ts).
  for (const scale of [1.5, 2]) {
    it(`full page larger than one tile, device scale ${scale}: the stitched tiles are Playwright's one shot`, async function () {
      await onPage('/long.html', { viewport: { width: 1600, height: 600 }, deviceScaleFactor: scale }, async (page) => {
        expect(5000, 'the page is taller than one tile').to.be.above(tileRows(1600, scale, CHROMIUM_TILE_DEVICE_PIXELS));
        const ours = await fullPageScreenshot(page, engine, { maxHeight: 0, limits: DEFAULT_CAPTURE_LIMITS, hasTouch: false, encoding: 'fast' }, []);
        await expectSamePixels(ours, await page.screenshot({ fullPage: true, caret: 'initial' }));
      });
    });
  }

  it('full page clipped to a max height', async function () {
    await onPage('/long.html', { viewport: { width: 800, height: 600 } }, async (page) => {
      const ours = await fullPageScreenshot(page, engine, { maxHeight: 1500, limits: DEFAULT_CAPTURE_LIMITS, hasTouch: false, encoding: 'fast' }, []);
      expect(await imageSize(ours)).to.deep.equal({ width: 800, height: 1500 });
      await expectSamePixels(ours, await page.screenshot({ fullPage: true, caret: 'initial', clip: { x: 0, y: 0, width: 800, height: 1500 } }));
    });
  });
});
