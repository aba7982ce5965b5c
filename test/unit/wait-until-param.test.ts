import { expect } from 'chai';
import { WAIT_UNTIL } from '../../core/capture-spec.js';
import { ApiError } from '../../core/errors.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';

const build = (query: string) =>
  buildCreateRequest(parseQuery(`url=http://site.test/page${query}`), { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 86400, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels });

describe('wait_until (create parameter)', function () {
  it('defaults to settled', function () {
    expect(build('').drafts[0]!.spec.waitUntil).to.equal('settled');
  });

  for (const value of WAIT_UNTIL) {
    it(`accepts ${value} (any case) into the spec`, function () {
      expect(build(`&wait_until=${value.toUpperCase()}`).drafts[0]!.spec.waitUntil).to.equal(value);
    });
  }

  it('refuses other values with a 400 naming wait_until', function () {
    for (const query of ['&wait_until=networkidle0', '&wait_until=', '&wait_until=load&wait_until=settled']) {
      let error: unknown = null;
      try {
        build(query);
      } catch (caught) {
        error = caught;
      }
      expect(error, query).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(400);
      expect((error as ApiError).extra.fields).to.have.property('wait_until');
    }
  });

  it('is part of the cache key: a capture at load is not reused for a settled one', function () {
    expect(build('&wait_until=load').drafts[0]!.specHash).not.to.equal(build('').drafts[0]!.specHash);
  });
});
