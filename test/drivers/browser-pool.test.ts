import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { BrowserPool, type BrowserPoolOptions } from '../../drivers/pool/browser-pool.js';
import { BROWSER_PROCESS, chromiumMainPids, countOwnProcesses, waitForOwnProcesses } from '../support/process-census.js';

/** Small pools of real Chromium browsers. */
describe('browser pool', function () {
  const driver = new PlaywrightDriver();
  const options = (overrides: Partial<BrowserPoolOptions> = {}): BrowserPoolOptions => ({
    min: 1,
    max: 2,
    capturesPerBrowser: 1,
    recycleAfterJobs: 100,
    idleTimeoutMs: 60_000,
    evictionIntervalMs: 0,
    acquireTimeoutMs: 20_000,
    ...overrides,
  });
  const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
    const until = Date.now() + timeoutMs;
    while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  let processesBefore: number;
  before(async function () {
    processesBefore = await countOwnProcesses(BROWSER_PROCESS, []);
  });
  after(async function () {
    expect(await waitForOwnProcesses(BROWSER_PROCESS, [], processesBefore, 15_000)).to.equal(processesBefore);
  });

  it('starts min browsers and recycles a browser after N jobs', async function () {
    const replaced: string[] = [];
    const pool = new BrowserPool(driver, 'chrome', {}, options({ recycleAfterJobs: 2, onReplace: (reason) => replaced.push(reason) }));
    try {
      await pool.ready();
      expect(pool.stats().size).to.equal(1);
      const used: BrowserHandle[] = [];
      for (let job = 0; job < 3; job += 1) await pool.use(async (handle) => void used.push(handle));
      expect(used[0]).to.equal(used[1]);
      expect(used[2]).to.not.equal(used[0]);
      expect(await used[0]!.healthy()).to.equal(false); // closed when recycled
      expect(replaced).to.deep.equal(['recycle']); // and counted (the agent's browser-restarts metric)
    } finally {
      await pool.close();
    }
  });

  it('never runs more than max browsers: the next borrower waits', async function () {
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 0, max: 1 }));
    try {
      let releaseFirst!: () => void;
      const first = pool.use(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
      await waitFor(() => pool.stats().borrowed === 1, 20_000);
      let secondRan = false;
      const second = pool.use(async () => void (secondRan = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondRan).to.equal(false);
      expect(pool.stats().pending).to.equal(1);
      releaseFirst();
      await Promise.all([first, second]);
      expect(secondRan).to.equal(true);
      expect(pool.stats().size).to.equal(1);
    } finally {
      await pool.close();
    }
  });

  it('destroys a crashed idle browser at once and starts a replacement', async function () {
    const pidsBefore = new Set(await chromiumMainPids());
    const replaced: string[] = [];
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 1, onReplace: (reason) => replaced.push(reason) }));
    try {
      await pool.ready();
      let original: BrowserHandle | null = null;
      await pool.use(async (handle) => void (original = handle));
      const started = (await chromiumMainPids()).filter((pid) => !pidsBefore.has(pid));
      expect(started).to.have.length(1);
      process.kill(started[0]!, 'SIGKILL');
      // Without any borrow, the 'disconnected' listener sweeps the idle list and `min` starts a new
      // browser process: a new Chromium main process appears on its own.
      let replacementPids: number[] = [];
      const until = Date.now() + 20_000;
      while (replacementPids.length === 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        replacementPids = (await chromiumMainPids()).filter((pid) => !pidsBefore.has(pid) && pid !== started[0]);
      }
      expect(replacementPids).to.have.length(1);
      await waitFor(() => pool.stats().size === 1 && pool.stats().available === 1 && pool.stats().borrowed === 0, 20_000);
      expect(pool.stats()).to.deep.include({ size: 1, available: 1, borrowed: 0 });
      let replacement: BrowserHandle | null = null;
      await pool.use(async (handle) => {
        replacement = handle;
        expect(await handle.healthy()).to.equal(true);
      });
      expect(replacement).to.not.equal(original);
      expect(replaced).to.deep.equal(['crash']);
    } finally {
      await pool.close();
    }
  });

  it('evicts idle browsers above min', async function () {
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 0, max: 1, idleTimeoutMs: 300, evictionIntervalMs: 200 }));
    try {
      await pool.use(async () => undefined);
      expect(pool.stats().size).to.equal(1);
      await waitFor(() => pool.stats().size === 0, 5_000);
      expect(pool.stats().size).to.equal(0);
    } finally {
      await pool.close();
    }
  });

  it('close drains borrowed browsers before closing them', async function () {
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 1 }));
    await pool.ready();
    let finished = false;
    const job = pool.use(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      finished = true;
    });
    await waitFor(() => pool.stats().borrowed === 1, 5_000);
    await pool.close();
    expect(finished).to.equal(true);
    await job;
    expect(pool.stats().size).to.equal(0);
  });

  it('lanes share a browser up to capturesPerBrowser; one more lane starts a second browser', async function () {
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 0, max: 3, capturesPerBrowser: 2 }));
    try {
      const held: BrowserHandle[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const jobs = [0, 1, 2].map(() =>
        pool.use(async (handle) => {
          held.push(handle);
          await released;
        }),
      );
      await waitFor(() => held.length === 3, 20_000);
      expect(new Set(held).size).to.equal(2);
      expect(pool.stats()).to.deep.include({ browsers: 2, borrowed: 3 });
      release();
      await Promise.all(jobs);
    } finally {
      await pool.close();
    }
    expect(pool.stats().browsers).to.equal(0);
  });

  it('a shared browser that served its captures takes no new one and closes when its last lane comes back', async function () {
    const replaced: string[] = [];
    const pool = new BrowserPool(driver, 'chrome', {}, options({ min: 0, max: 2, capturesPerBrowser: 2, recycleAfterJobs: 2, onReplace: (reason) => replaced.push(reason) }));
    try {
      const first: BrowserHandle[] = [];
      await Promise.all(
        [0, 1].map(() =>
          pool.use(async (handle) => {
            first.push(handle);
            await new Promise((resolve) => setTimeout(resolve, 200)); // both lanes busy at once
          }),
        ),
      );
      expect(first[0]).to.equal(first[1]);
      let next: BrowserHandle | null = null;
      await pool.use(async (handle) => void (next = handle));
      expect(next).to.not.equal(first[0]);
      expect(await first[0]!.healthy()).to.equal(false); // closed once its lanes were dropped
      expect(replaced).to.deep.equal(['recycle']);
      expect(pool.stats().browsers).to.equal(1);
    } finally {
      await pool.close();
    }
  });

  it('a browser that cannot start makes ready() reject with the reason at once (generic-pool alone would retry forever)', async function () {
    const pool = new BrowserPool(driver, 'chrome', { executablePath: '/nonexistent/chromium' }, options());
    const started = Date.now();
    try {
      const err = await pool.ready().then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).to.match(/^chrome could not be started: .*nonexistent/s);
      expect(Date.now() - started).to.be.below(10_000);
    } finally {
      await pool.close();
    }
  });
});
