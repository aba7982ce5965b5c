import { randomUUID } from 'node:crypto';
import { BROWSERS } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { PlaywrightDriver } from '../../drivers/playwright/playwright-driver.js';
import { TestSite } from '../support/test-site.js';
import { expectHouseAdBlocked, expectHouseAdShown, houseAdSpec, WITH_HOUSE_ADS_LIST } from './house-ad-case.js';

/**
 * An operator's filter list (SHOTFARM_AD_FILTER_LISTS) in the Playwright driver, in every browser: it
 * blocks and hides an ad the built-in list does not know; without it the same page shows the ad. (The
 * Selenium driver's counterpart is in selenium-conformance.test.ts, which has the grid.)
 */
describe('playwright driver: the operator filter lists', function () {
  let site: TestSite;
  const handles: BrowserHandle[] = [];

  before(async function () {
    site = await TestSite.start();
  });

  after(async function () {
    for (const handle of handles) await handle.close();
    await site.close();
  });

  const withList = new PlaywrightDriver({ ffmpegPath: 'ffmpeg', filterListFiles: WITH_HOUSE_ADS_LIST });
  const builtInOnly = new PlaywrightDriver({ ffmpegPath: 'ffmpeg' });
  for (const browser of BROWSERS) {
    it(`${browser}: an ad only the operator's list names is blocked and hidden with it, and shown without it`, async function () {
      for (const [driver, expectation] of [
        [withList, expectHouseAdBlocked],
        [builtInOnly, expectHouseAdShown],
      ] as const) {
        const handle = await driver.launch(browser, {});
        handles.push(handle);
        const token = randomUUID();
        const output = await handle.capture(houseAdSpec(browser, site, token), AbortSignal.timeout(55_000));
        await expectation(output, site, token);
      }
    });
  }
});
