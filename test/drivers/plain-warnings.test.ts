import net from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import type { BrowserName, Step } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium, launchFirefox } from '../../drivers/playwright/launch-browser.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { errorText } from '../../drivers/shared/error-text.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';

/** What a driver's protocol message looks like: a call name, a protocol or network code, a raw timeout. */
const PROTOCOL_TALK = /\b[a-z]+\.[a-z][A-Za-z]*: |Protocol error|net::|Timeout \d+ms|javascript error|invalid selector:|Unexpected token/;

/** A loopback port nothing listens on (bound, then closed): a connection there is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The message a promise rejects with, as errorText words it. */
async function said(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return errorText(error);
  }
  throw new Error('expected the call to fail');
}

describe('warnings say what happened in plain words, not a driver protocol message', function () {
  this.timeout(240_000);
  let site: TestSite;
  let refusedPort: number;
  const config = loadConfig({});

  before(async () => {
    site = await TestSite.start();
    refusedPort = await closedPort();
  });
  after(() => site?.close());

  for (const engine of ['chromium', 'firefox'] as const) {
    describe(`real ${engine} errors, as errorText words them`, () => {
      let browser: Browser;
      before(async () => {
        browser = engine === 'chromium' ? await launchChromium(config.agent.chromiumPath) : await launchFirefox(config.agent.firefoxPath);
      });
      after(() => browser?.close());

      it('a bad selector, an element that never appears, a key that does not exist, a <select> that is not one', async () => {
        const page = await browser.newPage();
        await page.goto(site.url('/target.html'));
        expect(await said(page.locator('div[[').click({ timeout: 500 }))).to.equal('"div[[" is not a valid CSS selector');
        expect(await said(page.locator('#nope').waitFor({ timeout: 300 }))).to.equal('no visible element matched within 0.3 s');
        expect(await said(page.keyboard.press('NotAKey'))).to.equal('"NotAKey" is not a key name (Enter, Tab, ArrowDown, Control+A…)');
        expect(await said(page.locator('body').selectOption('x', { timeout: 10_000 }))).to.equal('the element is not a drop-down list (<select>)');
        await page.close();
      });

      it('a navigation that times out, a refused connection', async () => {
        const page = await browser.newPage();
        expect(await said(page.goto(site.url('/never'), { timeout: 500 }))).to.equal('it did not load within 0.5 s');
        const refused = await said(page.goto(`http://127.0.0.1:${refusedPort}/`, { timeout: 10_000 }));
        // Firefox over WebDriver BiDi names no cause; Chromium names its code and the URL it failed on.
        expect(refused).to.equal(
          engine === 'chromium' ? `the server refused the connection (ERR_CONNECTION_REFUSED at http://127.0.0.1:${refusedPort}/)` : 'the browser could not load it and gave no reason',
        );
        await page.close();
      });

      it('a closed target, and a page that navigated away under a call', async () => {
        const page = await browser.newPage();
        await page.goto(site.url('/target.html'));
        const pending = said(page.evaluate(() => new Promise(() => undefined)));
        await page.goto(site.url('/echo'));
        expect(await pending).to.equal('the page moved to another document meanwhile');
        await page.close();
        expect(await said(page.evaluate(() => 1))).to.equal('the page was closed (it crashed or closed itself)');
      });
    });
  }

  /** Steps that each fail in a different way, and the target that cannot be found: the same for every driver. */
  const failing = (): { steps: Step[]; target: string } => ({
    steps: [
      { command: 'click', selector: 'div[[', timeout: 2 },
      { command: 'click', selector: '#does-not-exist', timeout: 1 },
      { command: 'select', selector: 'body', value: 'x', timeout: 1 },
      { command: 'press', value: 'NotAKey', timeout: 1 },
      { command: 'navigate', value: `http://127.0.0.1:${refusedPort}/`, timeout: 5 },
    ],
    target: 'div[[',
  });
  const expected = (refused: string, badSelector: string): string[] => [
    `Step 1 (click div[[) failed: ${badSelector}.`,
    'Step 2 (click #does-not-exist) failed: no visible element matched within 1 s.',
    'Step 3 (select body) failed: the element is not a drop-down list (<select>).',
    'Step 4 (press) failed: "NotAKey" is not a key name (Enter, Tab, ArrowDown, Control+A…).',
    `Step 5 (navigate) failed: ${refused}.`,
    `The target div[[ was not found in time (${badSelector}); the viewport was captured instead.`,
  ];
  const capture = async (handle: BrowserHandle, browser: BrowserName): Promise<string[]> =>
    (await handle.capture(captureSpec(browser, site.url('/target.html'), { ...failing(), maxWait: 30 }), AbortSignal.timeout(90_000))).warnings;

  for (const browser of ['chrome', 'firefox'] as const) {
    it(`a ${browser} capture through Playwright records them as plain sentences`, async () => {
      const handle = await new PlaywrightDriver({ ffmpegPath: 'ffmpeg' }).launch(browser, {});
      try {
        const warnings = await capture(handle, browser);
        const refused = browser === 'chrome' ? `the server refused the connection (ERR_CONNECTION_REFUSED at http://127.0.0.1:${refusedPort}/)` : 'the browser could not load it and gave no reason';
        expect(warnings).to.deep.equal(expected(refused, '"div[[" is not a valid CSS selector'));
        for (const warning of warnings) expect(warning).not.to.match(PROTOCOL_TALK);
      } finally {
        await handle.close();
      }
    });
  }

  it('a chrome capture through Selenium Grid records them as plain sentences (and a select step on another element no longer ends the process)', async () => {
    const grid = await SeleniumGrid.start(localGridOptions());
    try {
      const handle = await new SeleniumDriver({ ffmpegPath: 'ffmpeg' }).launch('chrome', { gridUrl: grid.url });
      try {
        const warnings = await capture(handle, 'chrome');
        expect(warnings).to.deep.equal(expected('the server refused the connection (ERR_CONNECTION_REFUSED)', 'the selector is not valid CSS'));
        for (const warning of warnings) expect(warning).not.to.match(PROTOCOL_TALK);
      } finally {
        await handle.close();
      }
    } finally {
      await grid.stop();
    }
  });
});
