import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { TestSite } from '../support/test-site.js';

/** The caller's AbortSignal is the one thing that stops a capture; the browser survives it. */
describe('capture abort', function () {
  let site: TestSite;
  let handle: BrowserHandle;

  before(async function () {
    site = await TestSite.start();
    handle = await new PlaywrightDriver().launch('chrome', {});
  });

  after(async function () {
    await handle?.close();
    await site?.close();
  });

  it('rejects soon after the signal aborts, and the browser stays healthy', async function () {
    const started = Date.now();
    const error = await handle.capture(captureSpec('chrome', site.url('/hang.html'), { maxWait: 30, delay: 20 }), AbortSignal.timeout(1_000)).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).name).to.match(/TimeoutError|AbortError/);
    expect(Date.now() - started).to.be.below(5_000);
    expect(await handle.healthy()).to.equal(true);
  });

  it('rejects at once for a signal already aborted', async function () {
    const controller = new AbortController();
    controller.abort();
    const error = await handle.capture(captureSpec('chrome', site.url('/target.html')), controller.signal).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(Error);
  });

  it('refuses a spec for another browser', async function () {
    const error = await handle.capture(captureSpec('firefox', site.url('/target.html')), AbortSignal.timeout(10_000)).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(String(error)).to.match(/this handle runs chrome, the spec asks for firefox/);
  });
});
