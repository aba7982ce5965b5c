import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { SETTLE_WATCH_KEY, settleWatchSource } from '../../drivers/page-scripts/settle-watch.js';
import { waitSettled, type WaitSettledResult } from '../../drivers/page-scripts/wait-settled.js';
import { SETTLE_RULES } from '../../drivers/shared/settle-page.js';
import { TestSite } from '../support/test-site.js';

/** The settled rule of drivers/shared/settle-page.ts. */
const RULE = { ...SETTLE_RULES.settled!, capMs: 2_000, watchKey: SETTLE_WATCH_KEY };
/** Frames the wait would watch itself at 60 Hz: 2 of them take ≥ 17 ms. Answered from the watch's frames, it waits none. */
const AT_ONCE_MS = 10;

/**
 * The settle watch records the frames after `load` (drivers/page-scripts/settle-watch.ts), so the wait
 * (wait-settled.ts) answers a page that settled before it started at its first look, without frames of its
 * own; a page still changing is not answered at once. Through Playwright directly, in Chromium and Firefox.
 */
describe('settle watch: the frames after load', function () {
  this.timeout(120_000);
  let site: TestSite;
  const config = loadConfig({});
  const browsers: Record<string, () => Promise<Browser>> = {
    chromium: () => launchChromium(config.agent.chromiumPath),
    firefox: () => launchFirefox(config.agent.firefoxPath),
  };

  before(async function () {
    site = await TestSite.start();
  });
  after(async function () {
    await site.close();
  });

  for (const [name, launch] of Object.entries(browsers)) {
    describe(name, function () {
      let browser: Browser;
      let page: Page;
      before(async function () {
        browser = await launch();
      });
      after(async function () {
        await browser.close();
      });
      beforeEach(async function () {
        page = await (await browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
        await page.addInitScript(settleWatchSource());
      });
      afterEach(async function () {
        await page.context().close();
      });

      it('a page settled before the wait started is answered at the first look', async function () {
        await page.goto(site.url('/target.html'));
        // Frames after load: a driver that learned of `load` late finds them already recorded.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const result: WaitSettledResult = await page.evaluate(waitSettled, RULE);
        expect(result.settled).to.equal(true);
        expect(result.watched).to.equal(true);
        expect(result.waitedMs).to.be.below(AT_ONCE_MS);
      });

      it("a lazy loader's observer not yet called holds the wait: the image it then loads is in the page", async function () {
        await page.goto(site.url('/target.html'));
        // The image is in the page, without a src, well before the loader observes it (no DOM or layout change then).
        await page.evaluate(() => {
          const image = document.createElement('img');
          image.id = 'lazy';
          image.style.cssText = 'display: block; width: 40px; height: 40px;';
          document.body.prepend(image);
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // The observer is created and the wait's first look made in one task, as when a busy browser runs the
        // observer's first callback frames after observe(): the wait must not answer before the loader has spoken.
        const result = await page.evaluate(
          ([wait, rule]) => {
            const loader = new IntersectionObserver((entries) => {
              for (const entry of entries) if (entry.isIntersecting) (entry.target as HTMLImageElement).src = '/slow/600/tile.png?color=ff8800';
            });
            loader.observe(document.getElementById('lazy')!);
            return ((0, eval)(`(${wait})`) as typeof waitSettled)(rule);
          },
          [waitSettled.toString(), RULE] as const,
        );
        expect(result.settled, result.busy.join(', ')).to.equal(true);
        expect(await page.evaluate(() => (document.getElementById('lazy') as HTMLImageElement).naturalWidth)).to.be.above(0);
        expect(result.waitedMs).to.be.above(400);
      });

      it('a page whose layout changes every frame after load is not answered at once', async function () {
        // The page grows by a pixel each frame for 400 ms after load, then holds still.
        await page.goto(site.url('/target.html'));
        await page.evaluate(() => {
          const started = performance.now();
          const bar = document.createElement('div');
          bar.style.background = '#f00';
          document.body.append(bar);
          const grow = (): void => {
            bar.style.height = `${Math.round(performance.now() - started)}px`;
            if (performance.now() - started < 400) requestAnimationFrame(grow);
          };
          requestAnimationFrame(grow);
        });
        const result: WaitSettledResult = await page.evaluate(waitSettled, RULE);
        expect(result.settled).to.equal(true);
        // It waited for the growth to end (400 ms after it started, less the evaluate's round trip).
        expect(result.waitedMs).to.be.above(250);
      });
    });
  }
});
