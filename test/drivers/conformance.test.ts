import { expect } from 'chai';
import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';
import type { BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { CapturesAhead } from '../support/captures-ahead.js';
import { BROWSER_PROCESS, countOwnProcesses, waitForOwnProcesses } from '../support/process-census.js';
import { PacketListener } from '../support/packet-listener.js';
import { TestSite } from '../support/test-site.js';
import { captureCase, CONFORMANCE_CASES } from './conformance-cases.js';

/**
 * Captures run ahead of their tests, this many at once (test/support/captures-ahead.ts): each browser of the
 * file is shared by its cases as a pool shares it, so two or three captures at once are what a pool does.
 */
const CAPTURES_AT_ONCE = 3;

/**
 * Every capture option against playwright × chrome, firefox and brave: one describe per browser,
 * generated from the one list of cases. One browser per (browser, launch variant) is launched once
 * and shared by the cases, as a pool would; each capture still gets its fresh context, and a few run at
 * once ahead of their tests (CAPTURES_AT_ONCE). A case that
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

  // Every (browser, case) in the order the tests run, each with its capture: CapturesAhead runs a few of
  // them ahead of their tests (the file's browsers wait on pages most of the time).
  const runs = BROWSERS.flatMap((browser) =>
    CONFORMANCE_CASES.filter((testCase) => (!testCase.browsers || testCase.browsers.includes(browser)) && !(browser === 'brave' && testCase.sameInBrave)).map((testCase) => ({ browser, testCase })),
  );
  const captures = new CapturesAhead(
    runs.map(
      ({ browser, testCase }) =>
        async () =>
          captureCase(await handleFor(browser, testCase.launch?.(browser) ?? {}), testCase, { site, listener, browser }),
    ),
    CAPTURES_AT_ONCE,
  );

  for (const browser of BROWSERS) {
    describe(`playwright × ${browser}`, function () {
      runs.forEach((run, i) => {
        if (run.browser !== browser) return;
        it(run.testCase.name, async function () {
          const { output, context } = await captures.result(i);
          await run.testCase.check(output, context);
        });
      });
    });
  }
});
