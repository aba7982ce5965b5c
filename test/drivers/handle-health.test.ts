import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { launchChromeHandle } from '../support/chrome-handle.js';
import { TestSite } from '../support/test-site.js';

/**
 * The pool asks a handle whether it is healthy before every capture. A capture that just finished
 * proves the browser answers, so the probe (a context opened and closed) is skipped then; a browser
 * with no recent capture is probed for real. A stopped (SIGSTOP) browser tells the two apart: it is
 * connected but answers nothing.
 */
describe('playwright handle health', function () {
  let site: TestSite;

  before(async function () {
    site = await TestSite.start();
  });

  after(async function () {
    await site?.close();
  });

  /** Runs `check` while the browser process is stopped, then lets it go on and closes it. */
  async function whileStopped(handle: BrowserHandle, pid: number, check: () => Promise<void>): Promise<void> {
    process.kill(pid, 'SIGSTOP');
    try {
      await check();
    } finally {
      process.kill(pid, 'SIGCONT');
      await handle.close();
    }
  }

  it('takes a capture that just finished as proof, without asking the browser', async function () {
    const { handle, pid } = await launchChromeHandle();
    await handle.capture(captureSpec('chrome', site.url('/target.html')), AbortSignal.timeout(30_000));
    await whileStopped(handle, pid, async () => {
      expect(await handle.healthy()).to.equal(true);
    });
  });

  it('probes a browser that has not captured lately, and finds a stopped one unhealthy', async function () {
    const { handle, pid } = await launchChromeHandle();
    await whileStopped(handle, pid, async () => {
      expect(await handle.healthy()).to.equal(false);
    });
  });
});
