import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { ContextOpener } from '../../drivers/playwright/context-opener.js';
import { useChromiumAndSite } from '../support/chromium-and-site.js';
import { until } from '../support/wait-until.js';

const OPTIONS = { viewport: { width: 1280, height: 800 } };
const OTHER_OPTIONS = { viewport: { width: 800, height: 600 } };

/**
 * drivers/playwright/context-opener.ts on Debian's Chromium: after two captures with the same options, the
 * next one gets a context opened ahead (never navigated), and one with other options a new context while
 * the one opened ahead is closed.
 */
describe('context opener', function () {
  const held = useChromiumAndSite();
  let opener: ContextOpener;

  beforeEach(function () {
    opener = new ContextOpener(held.browser);
  });
  afterEach(async function () {
    await opener.close();
    await Promise.all(held.browser.contexts().map((context) => context.close()));
  });

  /** Opens a context, closes it at once, and returns it. */
  async function openAndClose(options: typeof OPTIONS): Promise<BrowserContext> {
    const { context } = await opener.open(options);
    await context.close();
    return context;
  }

  /** Waits for the context opened ahead to exist, and returns it. */
  async function openedAhead(): Promise<BrowserContext> {
    await until('a context opened ahead', async () => held.browser.contexts().length === 1 && held.browser.contexts()[0]!.pages().length === 1);
    return held.browser.contexts()[0]!;
  }

  it('opens nothing ahead after a single capture', async function () {
    await openAndClose(OPTIONS);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(held.browser.contexts()).to.deep.equal([]);
  });

  it('the third capture with the same options gets the context opened ahead, with its blank page', async function () {
    await openAndClose(OPTIONS);
    await openAndClose(OPTIONS);
    const ahead = await openedAhead();
    const third = await opener.open(OPTIONS);
    expect(third.context).to.equal(ahead);
    expect(third.page.url()).to.equal('about:blank');
    expect(third.page.viewportSize()).to.deep.equal(OPTIONS.viewport);
    // and it opened the next one ahead in turn
    await until('the next context opened ahead', async () => held.browser.contexts().length === 2);
  });

  it('a capture with other options gets a new context, and the one opened ahead is closed', async function () {
    await openAndClose(OPTIONS);
    await openAndClose(OPTIONS);
    const ahead = await openedAhead();
    const other = await opener.open(OTHER_OPTIONS);
    expect(other.context).to.not.equal(ahead);
    expect(other.page.viewportSize()).to.deep.equal(OTHER_OPTIONS.viewport);
    await until('the context opened ahead to close', async () => !held.browser.contexts().includes(ahead));
    expect(held.browser.contexts()).to.deep.equal([other.context]);
  });

  it('close() closes the context opened ahead and opens no more', async function () {
    await openAndClose(OPTIONS);
    await openAndClose(OPTIONS);
    await openedAhead();
    await opener.close();
    expect(held.browser.contexts()).to.deep.equal([]);
    await openAndClose(OPTIONS);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(held.browser.contexts()).to.deep.equal([]);
  });
});
