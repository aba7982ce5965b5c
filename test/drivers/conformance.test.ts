import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';
import type { BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { BROWSER_PROCESS, countOwnProcesses, waitForOwnProcesses } from '../support/process-census.js';
import { PacketListener } from '../support/packet-listener.js';
import { TestSite } from '../support/test-site.js';
import { CONFORMANCE_CASES } from './conformance-cases.js';

/**
 * Every capture option against playwright × chrome, firefox and brave: one describe per browser,
 * generated from the one list of cases. One browser per (browser, launch variant) is launched once
 * and shared by the cases, as a pool would; each capture still gets its fresh context. A case that
 * exercises only the Chromium engine brave shares with chrome (`sameInBrave`) is not run again in brave.
 */
describe('playwright driver conformance', function () {
  let site: TestSite;
  let listener: PacketListener;
  let processesBefore: number;
  const driver = new PlaywrightDriver({ ffmpegPath: 'ffmpeg' });
  const handles = new Map<string, Promise<BrowserHandle>>();

  const handleFor = (browser: BrowserName, launch: LaunchOptions): Promise<BrowserHandle> => {
    const key = `${browser}:${JSON.stringify(launch)}`;
    let handle = handles.get(key);
    if (!handle) {
      handle = driver.launch(browser, launch);
      handles.set(key, handle);
    }
    return handle;
  };

  before(async function () {
    processesBefore = await countOwnProcesses(BROWSER_PROCESS, []);
    site = await TestSite.start();
    listener = await PacketListener.start();
  });

  after(async function () {
    for (const handle of handles.values()) await (await handle).close();
    await site.close();
    await listener.close();
    // Every browser process the suite started has exited: nothing leaks.
    expect(await waitForOwnProcesses(BROWSER_PROCESS, [], processesBefore, 15_000)).to.equal(processesBefore);
  });

  for (const browser of BROWSERS) {
    describe(`playwright × ${browser}`, function () {
      for (const testCase of CONFORMANCE_CASES) {
        if (testCase.browsers && !testCase.browsers.includes(browser)) continue;
        if (browser === 'brave' && testCase.sameInBrave) continue;
        it(testCase.name, async function () {
          const handle = await handleFor(browser, testCase.launch?.(browser) ?? {});
          const token = randomUUID();
          const partial = { site, listener, browser, token, elapsedMs: 0 };
          const { url, ...overrides } = testCase.spec(partial);
          const started = Date.now();
          const output = await handle.capture(captureSpec(browser, url, overrides), AbortSignal.timeout(55_000));
          await testCase.check(output, { ...partial, elapsedMs: Date.now() - started });
        });
      }
    });
  }
});
