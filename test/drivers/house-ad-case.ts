import { expect } from 'chai';
import type { BrowserName, CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { filterListFiles } from '../../drivers/shared/filter-list-path.js';
import { NO_AD_FILTER_WARNING } from '../../drivers/shared/ad-filter-matches.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { near, pixel } from '../support/media-probe.js';
import { repoPath } from '../support/repo-path.js';
import type { TestSite } from '../support/test-site.js';

/**
 * SHOTFARM_AD_FILTER_LISTS in a driver: the built-in list plus test/fixtures/filter-lists/house-ads.txt,
 * an operator's list that blocks /partner-tiles/ and hides .promo-unit, which the built-in list does not
 * (test/fixtures/site/adslots/house-ad.html).
 */
export const WITH_HOUSE_ADS_LIST = filterListFiles({ builtIn: true, files: [repoPath('test/fixtures/filter-lists/house-ads.txt')] });

/** hide_ads on the house-ad page, its request counted under `token`. */
export const houseAdSpec = (browser: BrowserName, site: TestSite, token: string): CaptureSpec => captureSpec(browser, site.url(`/adslots/house-ad.html?token=${token}`), { hideAds: true });

/** With the operator's list: the banner was never requested, the container is hidden, no hide_ads warning. */
export async function expectHouseAdBlocked(output: CaptureOutput, site: TestSite, token: string): Promise<void> {
  expect(site.hits(`/partner-tiles/tile-7.png?token=${token}`)).to.equal(0);
  expect(near(await pixel(output.images[0]!, 400, 75), [255, 0, 0])).to.equal(false);
  expect(output.warnings).to.deep.equal([]);
}

/** With the built-in list alone: the banner was requested, the container shows, and the record says no filter matched. */
export async function expectHouseAdShown(output: CaptureOutput, site: TestSite, token: string): Promise<void> {
  expect(site.hits(`/partner-tiles/tile-7.png?token=${token}`)).to.equal(1);
  expect(near(await pixel(output.images[0]!, 400, 75), [255, 0, 0])).to.equal(true);
  expect(output.warnings).to.deep.equal([NO_AD_FILTER_WARNING]);
}
