import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { SeleniumDriver } from '../../drivers/selenium/selenium-driver.js';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { CapturesAhead } from '../support/captures-ahead.js';
import { countOwnProcesses, SELENIUM_PROCESS, waitForOwnProcesses } from '../support/process-census.js';
import { PacketListener } from '../support/packet-listener.js';
import { TestSite } from '../support/test-site.js';
import { captureCase, CONFORMANCE_CASES, type ConformanceCase } from './conformance-cases.js';
import { expectHouseAdBlocked, expectHouseAdShown, houseAdSpec, WITH_HOUSE_ADS_LIST } from './house-ad-case.js';

/**
 * Cases the Selenium driver cannot honour, by case name, with the warning it must give instead. Such a
 * case does not run its own check (that would fail by design); it asserts that the capture still
 * produced an image and that the warning says so plainly. Everything not listed runs helper-1's check
 * unchanged. Empty means: every case of the list is honoured on selenium × chrome.
 */
const CANNOT_HONOUR = new Map<string, RegExp>();

/**
 * How long the grid may take to stop and its processes to exit: the JVM's shutdown plus chromedriver
 * and Chromium exiting take a few seconds; SeleniumGrid.stop() kills the group after 10 s anyway.
 */
const PROCESS_EXIT_WAIT_MS = 15_000;

/**
 * An aborted capture must be over within 8 s of its start: 2 s until the abort, the session's quit
 * (about a second here) and slack for a loaded two-core machine.
 */
const ABORT_SETTLE_MS = 8_000;

/** Sessions the grid is running now, from its /status (every node's slots). */
async function gridSessions(gridUrl: string): Promise<number> {
  const status = (await (await fetch(`${gridUrl}/status`)).json()) as { value: { nodes: { slots: { session: unknown }[] }[] } };
  return status.value.nodes.flatMap((node) => node.slots).filter((slot) => slot.session !== null).length;
}

/** The conformance cases that apply to chrome. */
const applies = (testCase: ConformanceCase): boolean => !testCase.browsers || testCase.browsers.includes('chrome');

/**
 * helper-1's conformance cases (test/drivers/conformance-cases.ts) against the Selenium driver on a real
 * Selenium Grid 4 (grid/selenium) with Debian's Chromium and chromedriver, chrome only. One handle is
 * shared by the cases as a pool would; every capture still runs in its own grid session. A case whose
 * check depends only on code both drivers share, through Selenium calls other cases still make
 * (`sameInSelenium`), runs in Playwright's chrome and firefox and not again here.
 */
describe('selenium driver conformance', function () {
  let site: TestSite;
  let listener: PacketListener;
  let grid: SeleniumGrid;
  let handle: BrowserHandle;
  let processesBefore: number;

  before(async function () {
    processesBefore = await countOwnProcesses(SELENIUM_PROCESS, []);
    site = await TestSite.start();
    listener = await PacketListener.start();
    grid = await SeleniumGrid.start(localGridOptions());
    handle = await new SeleniumDriver({ ffmpegPath: 'ffmpeg' }).launch('chrome', { gridUrl: grid.url });
  });

  after(async function () {
    const group = grid?.pid;
    await handle?.close();
    await grid?.stop();
    await site?.close();
    await listener?.close();
    // The JVM, every chromedriver and every Chromium the grid started have exited: nothing leaks.
    expect(await waitForOwnProcesses(SELENIUM_PROCESS, group === undefined ? [] : [group], processesBefore, PROCESS_EXIT_WAIT_MS)).to.equal(processesBefore);
  });

  it('offers chrome only, refuses other browsers and a launch without a grid URL', async function () {
    const driver = new SeleniumDriver();
    expect(driver.browsers()).to.deep.equal(['chrome']);
    let refused: unknown = null;
    await driver.launch('chrome', {}).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/needs LaunchOptions\.gridUrl/);
    await driver.launch('firefox', { gridUrl: grid.url }).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/runs chrome only, not firefox/);
    expect(await handle.healthy()).to.equal(true);
  });

  it('the process census sees the running grid (so the leak check after the suite can fail)', async function () {
    expect(await countOwnProcesses(SELENIUM_PROCESS, [grid.pid!])).to.be.above(processesBefore);
  });

  it('an aborted capture rejects at once and ends its grid session', async function () {
    const started = Date.now();
    let failure: unknown = null;
    // hang.html never finishes loading, so with a 20 s max_wait only the abort after 2 s ends the capture.
    await handle.capture(captureSpec('chrome', site.url('/hang.html'), { maxWait: 20 }), AbortSignal.timeout(2_000)).catch((error: unknown) => (failure = error));
    expect((failure as Error | null)?.name).to.equal('TimeoutError');
    expect(Date.now() - started).to.be.below(ABORT_SETTLE_MS);
    // The session is deleted in the background of the rejection; on a loaded machine the grid takes a
    // moment to report it gone, so wait for it within the same bound.
    const sessionDeadline = Date.now() + ABORT_SETTLE_MS;
    while ((await gridSessions(grid.url)) > 0 && Date.now() < sessionDeadline) await new Promise((r) => setTimeout(r, 200));
    expect(await gridSessions(grid.url)).to.equal(0);
  });

  it("hide_ads with an operator's filter list (SHOTFARM_AD_FILTER_LISTS): an ad only that list names is blocked and hidden, and shown without it", async function () {
    const withList = await new SeleniumDriver({ ffmpegPath: 'ffmpeg', filterListFiles: WITH_HOUSE_ADS_LIST }).launch('chrome', { gridUrl: grid.url });
    try {
      for (const [sessions, expectation] of [
        [withList, expectHouseAdBlocked],
        [handle, expectHouseAdShown],
      ] as const) {
        const token = randomUUID();
        await expectation(await sessions.capture(houseAdSpec('chrome', site, token), AbortSignal.timeout(55_000)), site, token);
      }
    } finally {
      await withList.close();
    }
  });

  it('every case left out names cases that still run here and make the Selenium calls its shared code goes through', function () {
    const runHere = new Set(CONFORMANCE_CASES.filter((testCase) => applies(testCase) && !testCase.sameInSelenium).map((testCase) => testCase.name));
    const leftOut = CONFORMANCE_CASES.filter((testCase) => testCase.sameInSelenium);
    expect(leftOut.length).to.be.above(0);
    for (const testCase of leftOut) {
      // Left out here, it must still run in Playwright's chrome, and its reason must point at cases run here.
      expect(applies(testCase), testCase.name).to.equal(true);
      expect(testCase.sameInSelenium!.shared, testCase.name).to.not.equal('');
      expect(testCase.sameInSelenium!.driverCallsIn, testCase.name).to.not.deep.equal([]);
      for (const name of testCase.sameInSelenium!.driverCallsIn) expect(runHere.has(name), `${testCase.name} → ${name}`).to.equal(true);
    }
  });

  // The grid runs as many sessions at once as its node has slots, so the captures run that many ahead of
  // their tests (test/support/captures-ahead.ts): each one starts a grid session, a new Chromium, and then
  // mostly waits on its page.
  const casesHere = CONFORMANCE_CASES.filter((testCase) => applies(testCase) && !testCase.sameInSelenium);
  const captures = new CapturesAhead(
    casesHere.map((testCase) => () => captureCase(handle, testCase, { site, listener, browser: 'chrome' })),
    localGridOptions().maxSessions,
  );
  casesHere.forEach((testCase, i) => {
    it(testCase.name, async function () {
      const { output, context } = await captures.result(i);
      const warning = CANNOT_HONOUR.get(testCase.name);
      if (warning) {
        expect(output.images.length).to.be.above(0);
        expect(output.warnings.join(' ')).to.match(warning);
        return;
      }
      await testCase.check(output, context);
    });
  });
});
