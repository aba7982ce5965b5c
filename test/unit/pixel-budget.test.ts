import { expect } from 'chai';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';
import { ApiError } from '../../core/errors.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { capturedArea } from '../../drivers/shared/page-height-cut.js';
import { CHROMIUM_TILE_DEVICE_PIXELS, FIREFOX_TILE_DEVICE_PIXELS, tileRows } from '../../drivers/shared/tiled-shot.js';

/**
 * The pixel budget of one capture (issue 25: `size=page&screen_width=10000` on a 100,000 px page grew one
 * renderer to 15.5 GB; each limit alone was accepted): width × height × device_scale² together.
 */
const BUDGET = DEFAULT_CAPTURE_LIMITS.maxCapturePixels;

describe('the pixel budget at create (unit)', () => {
  const fieldsOf = (query: string, maxCapturePixels = BUDGET): Record<string, string[]> => {
    try {
      buildCreateRequest(parseQuery(`url=http://site.test/page&${query}`), { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 0, maxCapturePixels });
    } catch (err) {
      expect(err).to.be.instanceOf(ApiError);
      expect((err as ApiError).status).to.equal(400);
      return (err as ApiError).extra.fields ?? {};
    }
    return {};
  };

  it('refuses a viewport above the budget, naming each field the request gave and the budget', () => {
    const fields = fieldsOf('screen_width=10000&screen_height=10000&device_scale=2');
    expect(Object.keys(fields).sort()).to.deep.equal(['device_scale', 'screen_height', 'screen_width']);
    expect(fields.screen_width![0]).to.equal(
      "makes a viewport of 10000 × 10000 px at device scale 2: 400 megapixels, above the farm's pixel budget of 128 megapixels (width × height × device_scale²)",
    );
  });

  it('names only the fields given: the default height with a large width and scale', () => {
    expect(Object.keys(fieldsOf('screen_width=10000&device_scale=5')).sort()).to.deep.equal(['device_scale', 'screen_width']);
  });

  it("names device_name when a catalogue device's viewport is above the budget", () => {
    // iPhone 13: 390 × 664 at scale 3 is 2.3 megapixels
    expect(Object.keys(fieldsOf('device_name=iphone-13', 2_000_000))).to.deep.equal(['device_name']);
  });

  it('accepts each limit alone, and a viewport exactly at the budget', () => {
    expect(fieldsOf('screen_width=10000&screen_height=10000')).to.deep.equal({});
    expect(fieldsOf('device_scale=5')).to.deep.equal({});
    expect(fieldsOf('screen_width=10000&size=page')).to.deep.equal({});
    expect(fieldsOf('screen_width=1000&screen_height=1000', 1_000_000)).to.deep.equal({});
  });
});

describe('the pixel budget cuts a full page (unit)', () => {
  const limits = DEFAULT_CAPTURE_LIMITS;

  it("cuts issue 25's 10000 × 100,000 page where the budget runs out, with one warning naming the setting", () => {
    const warnings: string[] = [];
    const area = capturedArea({ width: 10_000, height: 100_000, deviceScale: 1 }, 800, 0, limits, warnings);
    expect(area).to.deep.equal({ width: 10_000, height: 12_800 });
    capturedArea({ width: 10_000, height: 100_000, deviceScale: 1 }, 800, 0, limits, warnings); // a second shot
    expect(warnings).to.deep.equal([
      "The page is 10000 × 100000 px at device scale 1 (1000 megapixels); the capture stops at 10000 × 12800 px, the farm's pixel budget of 128 megapixels (SHOTFARM_MAX_CAPTURE_MEGAPIXELS).",
    ]);
  });

  it('counts the device scale squared', () => {
    expect(capturedArea({ width: 1280, height: 100_000, deviceScale: 2 }, 800, 0, limits, [])).to.deep.equal({ width: 1280, height: 25_000 });
  });

  it('leaves a page within the budget whole, and a max_height cut says nothing', () => {
    const warnings: string[] = [];
    expect(capturedArea({ width: 1280, height: 100_000, deviceScale: 1 }, 800, 0, limits, warnings)).to.deep.equal({ width: 1280, height: 100_000 });
    expect(capturedArea({ width: 10_000, height: 100_000, deviceScale: 1 }, 800, 5000, limits, warnings)).to.deep.equal({ width: 10_000, height: 5000 });
    expect(warnings).to.deep.equal([]);
  });

  it('cuts the width of a page so wide that not even the viewport height fits', () => {
    const warnings: string[] = [];
    expect(capturedArea({ width: 1_000_000, height: 5000, deviceScale: 1 }, 800, 0, limits, warnings)).to.deep.equal({ width: 160_000, height: 800 });
    expect(warnings[0]).to.contain('160000 × 800 px').and.contain('SHOTFARM_MAX_CAPTURE_MEGAPIXELS');
  });
});

describe('full-page tiles (unit)', () => {
  it('hold at most one tile of device pixels, in whole hundreds of CSS rows, under 65,535 device rows', () => {
    for (const tilePixels of [CHROMIUM_TILE_DEVICE_PIXELS, FIREFOX_TILE_DEVICE_PIXELS]) {
      for (const width of [10, 390, 1280, 10_000]) {
        for (const scale of [0.5, 1, 1.5, 2, 3, 5]) {
          const rows = tileRows(width, scale, tilePixels);
          expect(rows % 100, `${width} px at ${scale}`).to.equal(0);
          expect(rows * scale, `${width} px at ${scale}`).to.be.at.most(65_535);
          if (rows > 100) expect(width * rows * scale * scale, `${width} px at ${scale}`).to.be.at.most(tilePixels);
        }
      }
    }
    expect(tileRows(1280, 1, CHROMIUM_TILE_DEVICE_PIXELS)).to.equal(8100);
    expect(tileRows(1280, 1, FIREFOX_TILE_DEVICE_PIXELS)).to.equal(4000);
  });
});
