import type { CaptureOutput, CaptureSpec } from '../core/capture-spec.js';
import type { CertificateFacts, TlsCause } from './egress/tls-certificate.js';
import { certificateFailure, certificateFlaw } from './egress/tls-certificate.js';
import { unreachableSentence, type UnreachableCause } from './egress/unreachable-cause.js';
import { endpointOf, type Endpoint, type PageFailure } from './page-failure.js';
import { NO_LOAD_WITHIN } from '../drivers/shared/error-text.js';

/** The drivers' warning for a navigation that got no answer (drivers/playwright/open-page.ts, drivers/selenium/open-page.ts). */
const UNREACHED = 'The page could not be reached: ';

type BrowserCause = UnreachableCause | TlsCause;

/**
 * The browsers' own error codes, by engine: Chromium's net::ERR_* (chrome, brave, selenium) and
 * Firefox's NS_ERROR_* / SEC_ERROR_* / SSL_ERROR_* / MOZILLA_PKIX_ERROR_*. Exact codes first; the
 * families below catch the rest of TLS.
 */
const CODES: Record<string, BrowserCause> = {
  ERR_NAME_NOT_RESOLVED: 'dns',
  ERR_NAME_RESOLUTION_FAILED: 'dns',
  NS_ERROR_UNKNOWN_HOST: 'dns',
  ERR_CONNECTION_REFUSED: 'refused',
  NS_ERROR_CONNECTION_REFUSED: 'refused',
  ERR_CONNECTION_RESET: 'reset',
  ERR_CONNECTION_CLOSED: 'reset',
  ERR_CONNECTION_ABORTED: 'reset',
  ERR_EMPTY_RESPONSE: 'reset',
  // Chromium's word for a connection reset before the request was sent (seen without a proxy in between)
  ERR_SOCKET_NOT_CONNECTED: 'reset',
  NS_ERROR_NET_RESET: 'reset',
  NS_ERROR_NET_INTERRUPT: 'reset',
  NS_ERROR_NET_EMPTY_RESPONSE: 'reset',
  ERR_TIMED_OUT: 'timeout',
  ERR_CONNECTION_TIMED_OUT: 'timeout',
  NS_ERROR_NET_TIMEOUT: 'timeout',
  ERR_ADDRESS_UNREACHABLE: 'no_route',
  ERR_NETWORK_UNREACHABLE: 'no_route',
  ERR_CERT_DATE_INVALID: 'tls_expired',
  SEC_ERROR_EXPIRED_CERTIFICATE: 'tls_expired',
  SEC_ERROR_EXPIRED_ISSUER_CERTIFICATE: 'tls_expired',
  MOZILLA_PKIX_ERROR_NOT_YET_VALID_CERTIFICATE: 'tls_not_yet_valid',
  ERR_CERT_COMMON_NAME_INVALID: 'tls_wrong_host',
  SSL_ERROR_BAD_CERT_DOMAIN: 'tls_wrong_host',
  MOZILLA_PKIX_ERROR_SELF_SIGNED_CERT: 'tls_self_signed',
  ERR_CERT_AUTHORITY_INVALID: 'tls_untrusted',
  SEC_ERROR_UNKNOWN_ISSUER: 'tls_untrusted',
  SEC_ERROR_UNTRUSTED_ISSUER: 'tls_untrusted',
  SEC_ERROR_CA_CERT_INVALID: 'tls_untrusted',
};
const TLS_FAMILY = /^(ERR_CERT_|ERR_SSL_|ERR_BAD_SSL_|SEC_ERROR_|SSL_ERROR_|MOZILLA_PKIX_ERROR_)/;
/** Playwright's own deadline on the navigation (in errorText's words), and the Selenium driver's (Deadline.race). */
const TIMED_OUT = new RegExp(`${NO_LOAD_WITHIN}|the navigation did not finish before max_wait`);

/** What the browser said of the page's navigation: its code, the cause it means, and the URL it names. */
export interface BrowserError {
  code: string;
  cause: BrowserCause;
  url: string | null;
}

/**
 * Reads the browser's failed navigation out of the drivers' warning (its reason as drivers/shared/error-text.ts
 * words it: the browser's code and the URL it named in parentheses), or null when there is none.
 */
export function browserErrorOf(warnings: readonly string[]): BrowserError | null {
  const warning = warnings.find((w) => w.startsWith(UNREACHED));
  if (!warning) return null;
  const text = warning.slice(UNREACHED.length);
  // Greedy up to the last `)`: the one closing errorText's parentheses, whatever the URL holds.
  const url = /\bat (https?:\/\/\S+)\)/.exec(text)?.[1] ?? null;
  if (TIMED_OUT.test(text)) return { code: 'timeout', cause: 'timeout', url };
  const code = /\b(?:net::)?((?:ERR|NS_ERROR|SEC_ERROR|SSL_ERROR|MOZILLA_PKIX_ERROR)_[A-Z0-9_]+)/.exec(text)?.[1];
  // A reason without a code (Firefox often gives none): the reason is the detail.
  if (!code) return { code: text.replace(/\.$/, ''), cause: 'unreachable', url };
  return { code, cause: CODES[code] ?? (TLS_FAMILY.test(code) ? 'tls' : 'unreachable'), url };
}

/** Reads the certificate of an endpoint along the capture's own route (through the guard, or direct). */
export type CertificateProbe = (at: Endpoint) => Promise<CertificateFacts | null>;

/**
 * The failure of a capture whose page got no answer, from what the browser said (for a TLS failure, with
 * the facts of a probe of the certificate), or null when the page answered or the browser said nothing.
 * The egress guard's own knowledge comes first (blocked-verdict.ts): the browser behind it only saw its
 * proxy fail.
 */
export async function browserFailure(output: CaptureOutput, spec: Pick<CaptureSpec, 'url' | 'strictSsl'>, probe: CertificateProbe): Promise<PageFailure | null> {
  const requestedUrl = spec.url;
  if (output.responseCode !== null) return null;
  const said = browserErrorOf(output.warnings);
  if (!said) return null;
  const at = endpointOf(said.url ?? requestedUrl) ?? endpointOf(requestedUrl);
  if (!at) return null;
  switch (said.cause) {
    case 'tls_expired':
    case 'tls_not_yet_valid':
    case 'tls_wrong_host':
    case 'tls_self_signed':
    case 'tls_untrusted':
    case 'tls':
      return certificateFailure(at, await probe(at).catch(() => null), said.cause, said.code);
    case 'unreachable': {
      // Firefox over WebDriver BiDi names no cause at all ("unknown error") for a refused certificate:
      // with strict_ssl on an https page, the certificate is looked at before saying nothing more.
      const facts = spec.strictSsl && /^https:/i.test(said.url ?? requestedUrl) ? await probe(at).catch(() => null) : null;
      const flaw = facts ? certificateFlaw(at, facts) : null;
      return flaw ?? { cause: 'unreachable', error: unreachableSentence({ ...at, cause: 'unreachable' }, said.code) };
    }
    default:
      return { cause: said.cause, error: unreachableSentence({ ...at, cause: said.cause }) };
  }
}
