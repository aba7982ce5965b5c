import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { chromiumMainPids } from '../support/process-census.js';
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

  /** Launches a chrome handle and tells its main process id. */
  async function launch(): Promise<{ handle: BrowserHandle; pid: number }> {
    const before = new Set(await chromiumMainPids());
    const handle = await new PlaywrightDriver().launch('chrome', {});
    const pid = (await chromiumMainPids()).find((candidate) => !before.has(candidate));
    if (pid === undefined) throw new Error('the launched browser process was not found');
    return { handle, pid };
  }

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
    const { handle, pid } = await launch();
    await handle.capture(captureSpec('chrome', site.url('/target.html')), AbortSignal.timeout(30_000));
    await whileStopped(handle, pid, async () => {
      expect(await handle.healthy()).to.equal(true);
    });
  });

  it('probes a browser that has not captured lately, and finds a stopped one unhealthy', async function () {
    const { handle, pid } = await launch();
    await whileStopped(handle, pid, async () => {
      expect(await handle.healthy()).to.equal(false);
    });
  });
});
