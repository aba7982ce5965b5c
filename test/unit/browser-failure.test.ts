import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { CaptureOutput } from '../../core/capture-spec.js';
import { ERROR_CAUSES } from '../../core/error-cause.js';
import { errorText } from '../../drivers/shared/error-text.js';
import { browserErrorOf, browserFailure } from '../../node-agent/browser-failure.js';
import { certificateFailure, certificateFlaw, type CertificateFacts } from '../../node-agent/egress/tls-certificate.js';
import { repoPath } from '../support/repo-path.js';

/** The drivers' warning for a navigation that failed with this error message (worded by drivers/shared/error-text.ts). */
const unreachedWarning = (message: string): string => `The page could not be reached: ${errorText(new Error(message))}.`;
const unreached = (message: string): CaptureOutput => ({ responseCode: null, images: [], warnings: [unreachedWarning(message)] }) as unknown as CaptureOutput;
const NOW = new Date('2026-06-01T00:00:00Z');
const sound: CertificateFacts = { validFrom: new Date('2026-01-01'), validTo: new Date('2027-01-01'), names: ['shop.example'], matchesHost: true, selfSigned: false, trusted: true };
const at = { host: 'shop.example', port: 443 };

describe('what the browser said of a page it could not reach (unit)', () => {
  // What each engine reports (Playwright's Chromium and Firefox, and CDP's errorText through the Selenium
  // driver), as the drivers' warning words it.
  const cases: [string, string, string][] = [
    ['page.goto: net::ERR_NAME_NOT_RESOLVED at http://shop.example/', 'dns', 'Could not resolve host shop.example.'],
    ['page.goto: NS_ERROR_UNKNOWN_HOST', 'dns', 'Could not resolve host shop.example.'],
    ['net::ERR_CONNECTION_REFUSED', 'refused', 'shop.example:443 refused the connection.'],
    ['page.goto: NS_ERROR_CONNECTION_REFUSED', 'refused', 'shop.example:443 refused the connection.'],
    ['page.goto: net::ERR_EMPTY_RESPONSE at https://shop.example/', 'reset', 'shop.example:443 reset the connection.'],
    ['page.goto: NS_ERROR_NET_RESET', 'reset', 'shop.example:443 reset the connection.'],
    ['page.goto: Timeout 6000ms exceeded.', 'timeout', 'shop.example:443 did not answer in time.'],
    ['the navigation did not finish before max_wait', 'timeout', 'shop.example:443 did not answer in time.'],
    ['page.goto: net::ERR_ADDRESS_UNREACHABLE at https://shop.example/', 'no_route', 'shop.example:443 is unreachable: there is no route to it.'],
    ['page.goto: net::ERR_CERT_DATE_INVALID at https://shop.example/', 'tls_expired', 'The TLS certificate of shop.example has expired.'],
    ['page.goto: SEC_ERROR_EXPIRED_CERTIFICATE', 'tls_expired', 'The TLS certificate of shop.example has expired.'],
    ['page.goto: net::ERR_CERT_COMMON_NAME_INVALID at https://shop.example/', 'tls_wrong_host', 'The TLS certificate of shop.example is for another host name.'],
    ['page.goto: MOZILLA_PKIX_ERROR_SELF_SIGNED_CERT', 'tls_self_signed', 'The TLS certificate of shop.example is self-signed (strict_ssl is on).'],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'tls_untrusted', 'The TLS certificate of shop.example is not signed by a trusted authority (strict_ssl is on).'],
    ['page.goto: net::ERR_SSL_PROTOCOL_ERROR at https://shop.example/', 'tls', 'The TLS handshake with shop.example failed (ERR_SSL_PROTOCOL_ERROR).'],
    ['page.goto: net::ERR_FAILED at https://shop.example/', 'unreachable', 'shop.example:443 could not be reached (ERR_FAILED).'],
    ['page.goto: Protocol error (browsingContext.navigate): unknown error', 'unreachable', 'shop.example:443 could not be reached (the browser could not load it and gave no reason).'],
  ];
  for (const [warning, cause, error] of cases) {
    it(`${warning} → ${cause}`, async () => {
      // The probe finds nothing (as when the host is gone by then): the browser's word is all there is.
      const failure = await browserFailure(unreached(warning), { url: 'https://shop.example/', strictSsl: true }, async () => null);
      expect(failure).to.deep.equal({ cause, error });
      expect(ERROR_CAUSES).to.have.property(cause);
    });
  }

  it('names the host of the URL the browser names (a redirect), else the requested one', () => {
    expect(browserErrorOf([unreachedWarning('page.goto: net::ERR_CONNECTION_REFUSED at http://b.example:8080/x')])?.url).to.equal('http://b.example:8080/x');
    expect(browserErrorOf([unreachedWarning('page.goto: net::ERR_CONNECTION_REFUSED at http://b.example:8080/(x)')])?.url).to.equal('http://b.example:8080/(x)');
    expect(browserErrorOf([unreachedWarning('page.goto: NS_ERROR_UNKNOWN_HOST')])?.url).to.equal(null);
  });

  it('a page that answered, or no such warning: nothing to say', async () => {
    expect(await browserFailure({ responseCode: 404, images: [], warnings: [] } as unknown as CaptureOutput, { url: 'http://a/', strictSsl: false }, async () => null)).to.equal(null);
    expect(await browserFailure({ responseCode: null, images: [], warnings: ['something else'] } as unknown as CaptureOutput, { url: 'http://a/', strictSsl: false }, async () => null)).to.equal(null);
  });

  it('an unnamed failure of an https page with strict_ssl looks at the certificate (Firefox over BiDi names none)', async () => {
    const expired = { ...sound, validTo: new Date('2024-01-01T00:00:00Z') };
    const warning = 'page.goto: Protocol error (browsingContext.navigate): unknown error';
    expect(await browserFailure(unreached(warning), { url: 'https://shop.example/', strictSsl: true }, async () => expired)).to.deep.equal({
      cause: 'tls_expired',
      error: 'The TLS certificate of shop.example expired on 2024-01-01.',
    });
    let probed = false;
    await browserFailure(unreached(warning), { url: 'https://shop.example/', strictSsl: false }, async () => {
      probed = true;
      return expired;
    });
    expect(probed, 'without strict_ssl the browser ignores certificates: nothing to look at').to.equal(false);
  });
});

describe('what is wrong with a refused certificate (unit)', () => {
  const cases: [string, Partial<CertificateFacts>, string, string][] = [
    ['expired', { validTo: new Date('2024-01-01T00:00:00Z') }, 'tls_expired', 'The TLS certificate of shop.example expired on 2024-01-01.'],
    ['not valid yet', { validFrom: new Date('2027-03-01T00:00:00Z') }, 'tls_not_yet_valid', 'The TLS certificate of shop.example is not valid before 2027-03-01.'],
    [
      'for other names',
      { matchesHost: false, names: ['a.example', 'b.example', 'c.example', 'd.example'] },
      'tls_wrong_host',
      'The TLS certificate of shop.example is for a.example, b.example, c.example and 1 more, not for shop.example.',
    ],
    ['self-signed', { selfSigned: true, trusted: false }, 'tls_self_signed', 'The TLS certificate of shop.example is self-signed (strict_ssl is on).'],
    ['unknown authority', { trusted: false }, 'tls_untrusted', 'The TLS certificate of shop.example is not signed by a trusted authority (strict_ssl is on).'],
    [
      'expired, self-signed and for another host: the expiry first',
      { validTo: new Date('2024-01-01T00:00:00Z'), selfSigned: true, trusted: false, matchesHost: false },
      'tls_expired',
      'The TLS certificate of shop.example expired on 2024-01-01.',
    ],
  ];
  for (const [name, facts, cause, error] of cases) {
    it(name, () => expect(certificateFlaw(at, { ...sound, ...facts }, NOW)).to.deep.equal({ cause, error }));
  }

  it("a sound certificate has no flaw; the browser's cause is kept, the port named when not 443", () => {
    expect(certificateFlaw(at, sound, NOW)).to.equal(null);
    expect(certificateFailure({ host: 'shop.example', port: 8443 }, sound, 'tls_untrusted', 'ERR_CERT_AUTHORITY_INVALID', NOW)).to.deep.equal({
      cause: 'tls_untrusted',
      error: 'The TLS certificate of shop.example:8443 is not signed by a trusted authority (strict_ssl is on).',
    });
  });
});

describe('error_cause codes in the client docs (unit)', () => {
  it('docs/api-clients.md names every code of core/error-cause.ts, and no other', () => {
    const docs = readFileSync(repoPath('docs/api-clients.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## When there is no page'), docs.indexOf('## Automation steps'));
    const named = new Set([...section.matchAll(/^\| `([a-z_]+)` \| `/gm)].map((m) => m[1]));
    for (const m of section.matchAll(/`(unresponsive|too_much_memory|no_image|capture_failed|cancelled|not_queued)`/g)) named.add(m[1]);
    expect([...named].sort()).to.deep.equal(Object.keys(ERROR_CAUSES).sort());
  });
});
