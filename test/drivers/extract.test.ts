import { expect } from 'chai';
import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { ONE_BROWSER_PER_ENGINE } from '../support/one-browser-per-engine.js';
import { TestSite } from '../support/test-site.js';
import { SETTLE_FIXTURES } from './settle-fixtures.js';

/** The words of the fixtures that each case looks for. */
const ARTICLE_WORDS = ['forty browsers busy', 'settle wait dominates', 'recycled after a number of captures', 'sleep through the night'];
const NAV_AND_FOOTER = ['Subscribe to the newsletter', 'Imprint and legal notice', 'Hidden cookie note'];

type Capture = (path: string, overrides?: Partial<CaptureSpec>) => Promise<CaptureOutput>;

/**
 * markdown=1 and metadata=1 (drivers/shared/extract-page.ts) on fixtures modelled on common pages
 * (test/fixtures/site/extract/: an article with OpenGraph and Twitter cards, a product page with JSON-LD, a
 * client-rendered list, a shadow DOM component) and on the settle corpus (pages modelled on real ones that
 * draw late), in chrome, firefox and chrome through a Selenium Grid (the extraction is a page script: brave,
 * Chromium like chrome, would repeat chrome's cases; test/support/one-browser-per-engine.ts).
 */
function extractionCases(capture: Capture, site: () => TestSite, browser: string): void {
  it('an article: Markdown keeps the headline as #, headings, the table, the fenced code and absolute links, drops nav and footer', async function () {
    const output = await capture('/extract/article.html', { markdown: true });
    const md = output.markdown ?? '';
    expect(output.warnings, md).to.deep.equal([]);
    expect(md.split('\n')[0]).to.equal('# Tuning a browser farm');
    expect(md).to.match(/^## Measure first$/m);
    expect(md).to.match(/^### What we learned$/m);
    for (const words of ARTICLE_WORDS) expect(md).to.include(words);
    for (const words of NAV_AND_FOOTER) expect(md).not.to.include(words);
    expect(md).to.match(/^\| Phase \| Median \(ms\) \| p95 \(ms\) \|$/m);
    expect(md).to.match(/^\| -+ \| -+ \| -+ \|$/m);
    expect(md).to.match(/^\| Settle \| 610 \| 2500 \|$/m);
    expect(md).to.include('```ts\nconst pool = new BrowserPool({ size: 4, recycleAfter: 200 });\nawait pool.use((browser) => browser.capture(spec));\n```');
    expect(md).to.include(`[two-core machine](${site().url('/extract/guides/two-cores.html')})`);
    expect(md).to.include(`![A chart of capture phases](${site().url('/tile.png?color=336699')})`);
    expect(output.metadata, 'metadata was not asked').to.equal(null);
  });

  it('an article in full mode: the whole body, nav and footer included, hidden elements left out', async function () {
    const md = (await capture('/extract/article.html', { markdown: true, markdownMode: 'full' })).markdown ?? '';
    expect(md).to.include('Subscribe to the newsletter').and.include('Imprint and legal notice').and.include('forty browsers busy');
    expect(md).to.match(/^# Tuning a browser farm$/m);
    expect(md).not.to.include('Hidden cookie note');
  });

  it("an article's metadata: title, description, canonical, OpenGraph, Twitter, icons, theme colour, rendered fonts, colours, words", async function () {
    const output = await capture('/extract/article.html', { metadata: true });
    const m = output.metadata!;
    expect(m.title).to.equal('Tuning a browser farm | The Farm Journal');
    expect(m.description).to.equal('How a small team keeps forty browsers busy without losing a capture.');
    expect(m.lang).to.equal('en-GB');
    expect(m.canonical).to.equal(site().url('/extract/article.html?ref=canonical'));
    expect(m.open_graph).to.deep.equal({ title: 'Tuning a browser farm', type: 'article', image: 'https://cdn.farm.example/cover.png', site_name: 'The Farm Journal' });
    expect(m.twitter).to.deep.equal({ card: 'summary_large_image', site: '@farmjournal' });
    expect(m.icons).to.deep.equal([
      { url: site().url('/tile.png?color=1a6b3c'), sizes: '32x32', type: 'image/png' },
      { url: site().url('/extract/icons/touch.png'), sizes: '180x180', type: null },
    ]);
    expect(m.theme_color).to.equal('#1a6b3c');
    // The web font renders the text; the monospace family renders the code; "No Such Font" never renders.
    expect(m.fonts).to.include('Journal Sans').and.include('DejaVu Sans Mono');
    expect(m.fonts).not.to.include('No Such Font');
    expect(m.colors).to.have.length(5);
    for (const colour of m.colors) expect(colour).to.match(/^#[0-9a-f]{6}$/);
    expect(near(m.colors[0]!, '#ffffff'), `the white page dominates: ${m.colors[0]}`).to.equal(true);
    expect(
      m.colors.some((c) => near(c, '#1a6b3c')),
      `the green nav bar is among ${m.colors.join(' ')}`,
    ).to.equal(true);
    expect(m.word_count).to.be.within(200, 260); // 221 words in Chromium's and Firefox's innerText
    expect(m.content_type).to.equal('text/html');
    expect(output.markdown, 'markdown was not asked').to.equal(null);
  });

  it('a product page with JSON-LD: description, the price table as a GFM table, og:price kept', async function () {
    const output = await capture('/extract/product.html', { markdown: true, metadata: true });
    const md = output.markdown ?? '';
    expect(md.split('\n')[0]).to.equal('# Kaffeemühle K2');
    expect(md).to.include('Kegelmahlwerk aus gehärtetem Edelstahl');
    expect(md).to.match(/^\| Mahlstufen \| 40 *\|$/m);
    expect(md).not.to.include('In den Warenkorb');
    expect(output.metadata!.lang).to.equal('de');
    expect(output.metadata!.open_graph).to.include({ 'price:amount': '89.00', 'price:currency': 'EUR' });
  });

  it('a client-rendered list: the rendered items, with absolute links (full mode)', async function () {
    const md = (await capture('/extract/client-list.html', { markdown: true, markdownMode: 'full' })).markdown ?? '';
    expect(md).to.match(/^# Release notes$/m);
    // Turndown's list items: the marker, then the item indented as CommonMark reads it.
    expect(md).to.include(`-   [Release row 1](${site().url('/extract/notes/row%201.html')})`);
    expect(md).not.to.include('Loading…');
  });

  it('a page in a shadow DOM component: the shadow text and the slotted text, in the order shown', async function () {
    const md = (await capture('/extract/shadow.html', { markdown: true, markdownMode: 'full' })).markdown ?? '';
    expect(md).to.match(/^## Opening hours$/m);
    const slotted = md.indexOf('Monday to Friday');
    const shadow = md.indexOf('Shadow text: call');
    expect(slotted).to.be.above(-1);
    expect(shadow).to.be.above(slotted);
    expect(md).to.include(`[our front desk](${site().url('/extract/contact.html')})`);
    expect(md).to.include(`![Shop front](${site().url('/tile.png?color=aa3300')})`);
  });

  for (const fixture of SETTLE_FIXTURES) {
    it(`the settle corpus, ${fixture.name}: Markdown and metadata of what the capture shows`, async function () {
      const output = await capture(fixture.path, { markdown: true, markdownMode: 'full', metadata: true });
      expect(await fixture.drawn(output.images[0]!), 'the late content is in the capture').to.equal(true);
      // What each page draws late is in its Markdown; a page of colour alone has none.
      const drawnLate: Record<string, (md: string) => boolean> = {
        '/settle/amd-loader.html': (md) => md.includes('Terms of use'),
        '/settle/client-table.html': (md) => /^\| row 1 \| 7 +\|$/m.test(md),
        '/settle/web-font.html': (md) => md.includes('MWMW'),
        '/settle/fade-in.html': (md) => md === '',
        '/settle/lazy-images.html': (md) => md.includes(`![1](${site().url('/slow/800/tile.png?color=ff8800')})`),
      };
      expect(drawnLate[fixture.path]?.(output.markdown ?? 'none'), output.markdown ?? 'none').to.equal(true);
      // The metadata counts words exactly when the Markdown has text outside its images.
      const words = (output.markdown ?? '').replace(/!\[[^\]]*\]\([^)]*\)/g, '').match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
      expect(output.metadata!.word_count > 0, `${output.metadata!.word_count} words counted, ${words} in the Markdown`).to.equal(words > 0);
      expect(output.metadata!.colors.length).to.be.within(1, 5);
      expect(
        output.warnings.filter((w) => /Markdown|metadata|colours/.test(w)),
        `${browser}: no extraction warning`,
      ).to.deep.equal([]);
    });
  }
}

/** Whether two #rrggbb colours are within a few steps of each other on every channel. */
function near(a: string, b: string): boolean {
  const channels = (c: string): number[] => [1, 3, 5].map((at) => parseInt(c.slice(at, at + 2), 16));
  const [x, y] = [channels(a), channels(b)];
  return x.every((v, i) => Math.abs(v - y[i]!) <= 12);
}

describe('extraction: Markdown and metadata of a capture', function () {
  let site: TestSite;
  before(async function () {
    site = await TestSite.start();
  });
  after(async function () {
    await site.close();
  });

  for (const browser of ONE_BROWSER_PER_ENGINE) {
    describe(`playwright × ${browser}`, function () {
      let handle: BrowserHandle;
      before(async function () {
        this.timeout(120_000);
        handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg', settleCapSeconds: 3 }).launch(browser, {});
      });
      after(async function () {
        await handle?.close();
      });
      extractionCases(
        (path, overrides) => handle.capture(captureSpec(browser, site.url(path), overrides), AbortSignal.timeout(60_000)),
        () => site,
        browser,
      );
    });
  }

  describe('selenium × chrome', function () {
    let grid: SeleniumGrid;
    let handle: BrowserHandle;
    before(async function () {
      this.timeout(120_000);
      grid = await SeleniumGrid.start(localGridOptions());
      handle = await new SeleniumDriver({ ffmpegPath: 'ffmpeg' }).launch('chrome', { gridUrl: grid.url });
    });
    after(async function () {
      await handle?.close();
      await grid?.stop();
    });
    extractionCases(
      (path, overrides) => handle.capture(captureSpec('chrome', site.url(path), overrides), AbortSignal.timeout(60_000)),
      () => site,
      'selenium',
    );
  });
});
