import { expect } from 'chai';
import { chromiumBrands, personIdentity, personUserAgent } from '../../drivers/shared/person-user-agent.js';

/** The Sec-CH-UA header of a brand list, as Chromium writes it. */
const header = (brands: { brand: string; version: string }[]): string => brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');

describe("a person's User-Agent and client hints (drivers/shared/person-user-agent.ts)", function () {
  it('drops the HeadlessChrome token and keeps the rest of the User-Agent', function () {
    expect(personUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36')).to.equal(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
  });

  // Headers browsers of these versions sent (Chrome's brand is "Google Chrome", computed the same way as Brave's).
  for (const [version, extra, sent] of [
    ['156', null, '"Not:A-Brand";v="8", "Chromium";v="156"'],
    ['120', 'Google Chrome', '"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"'],
    ['122', 'Google Chrome', '"Chromium";v="122", "Not(A:Brand";v="24", "Google Chrome";v="122"'],
    ['131', 'Brave', '"Brave";v="131", "Chromium";v="131", "Not_A Brand";v="24"'],
  ] as const) {
    it(`the brand list of ${extra ?? 'Chromium'} ${version} is the one that browser sends: ${sent}`, function () {
      expect(header(chromiumBrands(version, extra))).to.equal(sent);
    });
  }

  it('the full version list gives the full versions, the GREASE brand as N.0.0.0', function () {
    expect(chromiumBrands('156.0.8078.108', 'Brave', true)).to.deep.equal([
      { brand: 'Not:A-Brand', version: '8.0.0.0' },
      { brand: 'Chromium', version: '156.0.8078.108' },
      { brand: 'Brave', version: '156.0.8078.108' },
    ]);
  });

  it("the request's User-Agent wins; the hints keep the browser's version and take the platform from the User-Agent", function () {
    const version = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36', product: 'Chrome/156.0.8078.108' };
    const own = personIdentity(version, null, null, false);
    expect(own.userAgent).to.not.include('Headless');
    expect(own.userAgentMetadata).to.include({ platform: 'Linux', architecture: 'x86', bitness: '64', fullVersion: '156.0.8078.108', mobile: false });
    const given = personIdentity(version, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Brave', true);
    expect(given.userAgent).to.match(/^Mozilla\/5\.0 \(Windows NT/);
    expect(given.userAgentMetadata).to.include({ platform: 'Windows', mobile: true });
  });
});
