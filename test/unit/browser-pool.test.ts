import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { BrowserPool, type BrowserPoolOptions } from '../../drivers/pool/browser-pool.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { FakeBrowserDriver, type FakeBrowserHandle } from '../support/fake-browser-driver.js';
import { until } from '../support/wait-until.js';

/**
 * The pool's bookkeeping over a fake driver (no browser process, so it runs in milliseconds). The real
 * Chromium pool is tested in test/drivers/browser-pool.test.ts (min, max, recycle, a SIGKILLed idle
 * browser, eviction, drain, shared lanes, a failing launch); this file covers the counts those tests
 * cannot see cheaply: launches and closes per lane, a browser that crashes while borrowed, a sick
 * browser on borrow, and the browser ceiling under many borrowers.
 */
describe('browser pool (fake driver)', function () {
  const options = (overrides: Partial<BrowserPoolOptions> = {}): BrowserPoolOptions => ({
    min: 0,
    max: 2,
    capturesPerBrowser: 1,
    recycleAfterJobs: 100,
    idleTimeoutMs: 60_000,
    evictionIntervalMs: 0,
    acquireTimeoutMs: 5_000,
    ...overrides,
  });
  const pools: BrowserPool[] = [];
  const pool = (driver: FakeBrowserDriver, overrides: Partial<BrowserPoolOptions> = {}): BrowserPool => {
    const made = new BrowserPool(driver, 'chrome', {}, options(overrides));
    pools.push(made);
    return made;
  };
  afterEach(async function () {
    for (const made of pools.splice(0)) await made.close();
  });
  const waitUntil = (condition: () => boolean, ms: number): Promise<true> => until(condition.toString(), async () => condition(), ms);
  const handleOf = (handle: BrowserHandle): FakeBrowserHandle => handle as FakeBrowserHandle;

  it('lends up to capturesPerBrowser captures at once per browser, and launches one browser per full share', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { max: 5, capturesPerBrowser: 2 });
    const held: BrowserHandle[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const jobs = [0, 1, 2, 3, 4].map(() =>
      p.use(async (handle) => {
        held.push(handle);
        await released;
      }),
    );
    try {
      await waitUntil(() => held.length === 5, 5_000);
      const perBrowser = new Map<BrowserHandle, number>();
      for (const handle of held) perBrowser.set(handle, (perBrowser.get(handle) ?? 0) + 1);
      expect([...perBrowser.values()].sort()).to.deep.equal([1, 2, 2]);
      expect(driver.launches).to.equal(3);
    } finally {
      release(); // a failed expectation must not leave lanes borrowed: close() would wait for them forever
      await Promise.all(jobs);
    }
  });

  it('never starts more browsers than slots, however many borrowers wait', async function () {
    const driver = new FakeBrowserDriver();
    driver.launchMs = 20; // launches overlap with the borrowers that wait for them
    const p = pool(driver, { max: 3, capturesPerBrowser: 2 });
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 30 }, () =>
        p.use(async (handle) => {
          running += 1;
          most = Math.max(most, running);
          await handle.capture(captureSpec('chrome', 'http://fake.test/'), new AbortController().signal);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(most).to.equal(3);
    expect(driver.launches).to.equal(2); // 3 slots at 2 per browser: 2 browsers, launched once each
    expect(p.stats().browsers).to.equal(2);
  });

  it('recycles a browser after recycleAfterJobs captures: closed once, a new one launched', async function () {
    const driver = new FakeBrowserDriver();
    const replaced: string[] = [];
    const p = pool(driver, { max: 1, recycleAfterJobs: 3, onReplace: (reason) => replaced.push(reason) });
    const used: number[] = [];
    for (let job = 0; job < 7; job += 1) await p.use(async (handle) => void used.push(handleOf(handle).id));
    expect(used).to.deep.equal([1, 1, 1, 2, 2, 2, 3]);
    expect(driver.handles.map((h) => h.closed)).to.deep.equal([true, true, false]);
    expect(replaced).to.deep.equal(['recycle', 'recycle']);
  });

  it('a browser that crashes while borrowed finishes that capture, then is replaced (not lent again)', async function () {
    const driver = new FakeBrowserDriver();
    const replaced: string[] = [];
    const p = pool(driver, { min: 1, max: 1, onReplace: (reason) => replaced.push(reason) });
    await p.ready();
    const failed = await p.use(async (handle) => {
      handleOf(handle).crash();
      return handle.capture(captureSpec('chrome', 'http://fake.test/'), new AbortController().signal).then(
        () => null,
        (e: unknown) => e as Error,
      );
    });
    expect(failed?.message).to.match(/is gone/);
    const next = await p.use(async (handle) => handleOf(handle));
    expect(next.id).to.equal(2);
    expect(await next.healthy()).to.equal(true);
    expect(driver.handles[0]!.closed).to.equal(true); // the crashed handle is still closed (its resources freed)
    expect(replaced).to.deep.equal(['crash']);
    expect(p.stats().browsers).to.equal(1);
  });

  it('an idle browser that crashes is swept at once and min starts a replacement without a borrow', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 1, max: 2 });
    await p.ready();
    driver.handles[0]!.crash();
    await waitUntil(() => driver.live === 1 && driver.launches === 2 && p.stats().available === 1, 5_000);
    expect(driver.handles[0]!.closed).to.equal(true);
    expect(p.stats()).to.deep.include({ browsers: 1, size: 1 });
  });

  it('a browser that answers healthy() false on borrow is dropped and the borrower gets a new one', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 1, max: 1 });
    await p.ready();
    driver.handles[0]!.sick = true;
    const got = await p.use(async (handle) => handleOf(handle).id);
    expect(got).to.equal(2);
    expect(driver.handles[0]!.closed).to.equal(true);
  });

  it('closes idle browsers beyond min after idleTimeoutMs; the warm minimum stays started, never closed and relaunched', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 1, max: 3, idleTimeoutMs: 100, evictionIntervalMs: 20 });
    await p.ready();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const jobs = [0, 1, 2].map(() => p.use(() => released));
    try {
      await waitUntil(() => p.stats().borrowed === 3, 5_000);
      expect(driver.live).to.equal(3);
    } finally {
      release();
      await Promise.all(jobs);
    }
    await waitUntil(() => driver.live === 1, 5_000);
    // Several timeouts more: the warm browser is kept, not dropped and relaunched at each eviction run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(driver.launches).to.equal(3);
    expect(driver.closes).to.equal(2);
    expect(driver.live).to.equal(1);
    expect(p.stats()).to.deep.include({ browsers: 1, size: 1, available: 1 });
    const next = await p.use(async (handle) => handleOf(handle));
    expect(next.closed).to.equal(false);
    expect(driver.launches).to.equal(3); // the capture after idle took the warm browser: no launch
  });

  it('never closes a lent browser for idleness, however long its capture takes', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 0, max: 2, idleTimeoutMs: 30, evictionIntervalMs: 10 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let lent: FakeBrowserHandle | undefined;
    const long = p.use(async (handle) => {
      lent = handleOf(handle);
      await released;
      // Ten idle timeouts later the lent browser still captures.
      return handle.capture(captureSpec('chrome', 'http://fake.test/'), new AbortController().signal);
    });
    try {
      await waitUntil(() => lent !== undefined, 5_000);
      await p.use(async () => undefined); // a second browser, idle from now on
      expect(driver.launches).to.equal(2);
      await waitUntil(() => driver.closes === 1, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lent!.closed).to.equal(false);
      expect(driver.handles.find((h) => h !== lent)!.closed).to.equal(true);
    } finally {
      release();
    }
    expect((await long).images).to.have.length(1);
    // Returned, it is idle like any other and closes after the timeout.
    await waitUntil(() => driver.live === 0, 5_000);
  });

  it('with a warm minimum of 0, every browser closes after idling, and a capture after that launches one', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 0, max: 2, idleTimeoutMs: 50, evictionIntervalMs: 10 });
    await Promise.all([0, 1].map(() => p.use(() => new Promise((resolve) => setTimeout(resolve, 20)))));
    expect(driver.launches).to.equal(2);
    await waitUntil(() => driver.live === 0, 5_000);
    expect(p.stats()).to.deep.include({ browsers: 0, size: 0 });
    const out = await p.use((handle) => handle.capture(captureSpec('chrome', 'http://fake.test/'), new AbortController().signal));
    expect(out.images).to.have.length(1);
    expect(driver.launches).to.equal(3);
  });

  it('closes every idle browser of a burst in one eviction run (generic-pool looks at only 3 per run by default)', async function () {
    const driver = new FakeBrowserDriver();
    // One run 300 ms after the burst: all six are past the 10 ms timeout by then.
    const p = pool(driver, { min: 0, max: 6, idleTimeoutMs: 10, evictionIntervalMs: 300 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const jobs = Array.from({ length: 6 }, () => p.use(() => released));
    await waitUntil(() => p.stats().borrowed === 6, 5_000);
    release();
    await Promise.all(jobs);
    await waitUntil(() => driver.live < 6, 5_000);
    expect(driver.live).to.equal(0);
  });

  it('close() closes every browser it launched', async function () {
    const driver = new FakeBrowserDriver();
    const p = new BrowserPool(driver, 'chrome', {}, options({ min: 2, max: 2 }));
    await p.ready();
    await p.close();
    expect(driver.launches).to.equal(2);
    expect(driver.closes).to.equal(2);
  });

  it('a failing launch makes ready() reject with the reason', async function () {
    const driver = new FakeBrowserDriver();
    driver.failNextLaunch = new Error('no such binary');
    const p = pool(driver, { min: 1 });
    const error = await p.ready().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('chrome could not be started: no such binary');
  });

  it('launchFirst() with a warm minimum of 0 fails at the first failed launch, and the next capture uses the browser it started', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { min: 0, max: 2 });
    await p.ready(); // min 0: starts nothing, so it cannot tell a browser that does not start
    expect(driver.launches).to.equal(0);
    driver.failNextLaunch = new Error('no such binary');
    const error = await p.launchFirst().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('chrome could not be started: no such binary');
    await p.launchFirst();
    const used = await p.use(async (handle) => handleOf(handle).id);
    expect(used).to.equal(1);
    expect(driver.launches).to.equal(1);
  });

  it('a hung capture ends when its job is aborted, and its lane comes back', async function () {
    const driver = new FakeBrowserDriver();
    const p = pool(driver, { max: 1 });
    const controller = new AbortController();
    const job = p.use(async (handle) => {
      handleOf(handle).mode = 'hang';
      return handle.capture(captureSpec('chrome', 'http://fake.test/'), controller.signal);
    });
    await waitUntil(() => driver.handles[0]?.captures === 1, 5_000);
    controller.abort(new Error('job cancelled'));
    const error = await job.then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('job cancelled');
    expect(p.stats()).to.deep.include({ borrowed: 0, available: 1 });
  });
});
