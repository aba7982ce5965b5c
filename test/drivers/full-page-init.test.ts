import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { lazyLoadScroll, type LazyLoadScrollResult } from '../../drivers/page-scripts/lazy-load-scroll.js';
import { prepareFullPage, SCROLL_WATCH_KEY } from '../../drivers/page-scripts/full-page-init.js';
import { useChromiumAndSite } from '../support/chromium-and-site.js';

/** Enough for the slowest page here (four viewports of steps and the settle pause) on a loaded machine. */
const BUDGET_MS = 10_000;

/**
 * The lazy-load scroll steps through a full page only when the page can react to scrolling (the watch
 * saw an IntersectionObserver or a scroll listener); either way lazy images end up loaded.
 */
describe('full-page init script: lazy images load with the page, the lazy-load scroll runs only where scrolling can change it', function () {
  const env = useChromiumAndSite();
  let token = 0;

  /** Opens a fixture (with the watch unless told otherwise), lets `before` touch the page, runs the scroll. */
  async function scrollThrough(path: string, options: { watch: boolean; before?: (page: Page) => Promise<void> }): Promise<LazyLoadScrollResult & { lazyHits: number }> {
    const context = await env.browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      if (options.watch) await context.addInitScript(prepareFullPage, SCROLL_WATCH_KEY);
      const page = await context.newPage();
      const query = `?token=${++token}`;
      await page.goto(env.site.url(`${path}${query}`));
      await options.before?.(page);
      const result = await page.evaluate(lazyLoadScroll, { maxHeight: 0, budgetMs: BUDGET_MS, watchKey: SCROLL_WATCH_KEY });
      return { ...result, lazyHits: env.site.hits(`/lazy.png${query}`) };
    } finally {
      await context.close();
    }
  }

  it('does not scroll a page without observers or scroll listeners, and still loads its loading=lazy image', async function () {
    const result = await scrollThrough('/long.html', { watch: true });
    expect(result).to.deep.equal({ height: 5000, scrolled: false, lazyHits: 1 });
  });

  it('loads loading=lazy images with the page: they are in by the time the page has loaded', async function () {
    const hitsAfterLoad = async (init: boolean): Promise<number> => {
      const context = await env.browser.newContext({ viewport: { width: 800, height: 600 } });
      try {
        if (init) await context.addInitScript(prepareFullPage, SCROLL_WATCH_KEY);
        const page = await context.newPage();
        const query = `?token=${++token}`;
        await page.goto(env.site.url(`/long.html${query}`), { waitUntil: 'load' });
        return env.site.hits(`/lazy.png${query}`);
      } finally {
        await context.close();
      }
    };
    // Without the init script Chromium leaves the image 4000 px below the fold alone: the check means something.
    expect(await hitsAfterLoad(false)).to.equal(0);
    expect(await hitsAfterLoad(true)).to.equal(1);
  });

  for (const path of ['/lazy-observer.html', '/lazy-scroll-listener.html']) {
    it(`scrolls ${path}, which loads its image when scrolled to`, async function () {
      expect(await scrollThrough(path, { watch: true })).to.deep.equal({ height: 4000, scrolled: true, lazyHits: 1 });
    });
  }

  it('scrolls a page that set window.onscroll (a property, not a listener)', async function () {
    const result = await scrollThrough('/long.html', {
      watch: true,
      before: (page) =>
        page.evaluate(() => {
          window.onscroll = () => undefined;
        }),
    });
    expect(result.scrolled).to.equal(true);
  });

  it('scrolls every page when the watch is not installed (nothing is known about the page)', async function () {
    expect((await scrollThrough('/long.html', { watch: false })).scrolled).to.equal(true);
  });

  it('leaves the wrapped methods looking native to the page', async function () {
    const context = await env.browser.newContext();
    try {
      await context.addInitScript(prepareFullPage, SCROLL_WATCH_KEY);
      const page = await context.newPage();
      await page.goto(env.site.url('/target.html'));
      const looks = await page.evaluate(() =>
        [IntersectionObserver.prototype.observe, EventTarget.prototype.addEventListener].map((fn) => ({
          name: fn.name,
          length: fn.length,
          native: Function.prototype.toString.call(fn).includes('[native code]'),
        })),
      );
      expect(looks).to.deep.equal([
        { name: 'observe', length: 1, native: true },
        { name: 'addEventListener', length: 2, native: true },
      ]);
      expect(await page.evaluate(() => Object.keys(window).some((key) => key.includes('shotfarm')))).to.equal(false);
    } finally {
      await context.close();
    }
  });
});
