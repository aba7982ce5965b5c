import type net from 'node:net';
import tls, { type DetailedPeerCertificate } from 'node:tls';
import type { Endpoint, PageFailure } from '../page-failure.js';

/** The TLS causes a browser names (core/error-cause.ts); the probe below tells which one, with the facts. */
export type TlsCause = 'tls_expired' | 'tls_not_yet_valid' | 'tls_wrong_host' | 'tls_self_signed' | 'tls_untrusted' | 'tls';

/** What the agent saw of a host's certificate: enough to say in one sentence what is wrong with it. */
export interface CertificateFacts {
  validFrom: Date;
  validTo: Date;
  /** the names it is for (subjectAltName, else the common name) */
  names: string[];
  matchesHost: boolean;
  selfSigned: boolean;
  /** its chain leads to an authority Node trusts (dates and host name aside) */
  trusted: boolean;
}

/** A handshake is a round trip or two; a host that needs longer has nothing more to tell than the browser did. */
const PROBE_TIMEOUT_MS = 5_000;

/** OpenSSL's verdicts that concern only the dates: the chain itself is trusted. */
const DATE_ONLY = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT']);

/**
 * Shakes hands with `host` over `socket` (a connection the caller opened to the address it checked) without
 * validating, to read the certificate the browser refused. The browser only says which rule failed first
 * by its own order (Chromium names an unknown authority before an expired date); the facts say all of it.
 * Resolves null when the handshake does not complete: then the browser's word is all there is.
 */
export function probeCertificate(socket: net.Socket, host: string): Promise<CertificateFacts | null> {
  return new Promise((resolve) => {
    const secure = tls.connect({ socket, servername: isIpAddress(host) ? undefined : host, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    const done = (facts: CertificateFacts | null): void => {
      clearTimeout(timer);
      secure.destroy();
      socket.destroy();
      resolve(facts);
    };
    const timer = setTimeout(() => done(null), PROBE_TIMEOUT_MS);
    secure.once('error', () => done(null));
    secure.once('secureConnect', () => {
      const cert = secure.getPeerCertificate(true);
      if (!cert.raw) return done(null);
      const verdict = secure.authorizationError ? String((secure.authorizationError as Error & { code?: string }).code ?? secure.authorizationError) : null;
      done({
        validFrom: new Date(cert.valid_from),
        validTo: new Date(cert.valid_to),
        names: namesOf(cert),
        matchesHost: tls.checkServerIdentity(host, cert) === undefined,
        selfSigned: (verdict !== null && SELF_SIGNED.has(verdict)) || cert.issuerCertificate?.fingerprint256 === cert.fingerprint256,
        trusted: verdict === null || DATE_ONLY.has(verdict),
      });
    });
  });
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

function namesOf(cert: DetailedPeerCertificate): string[] {
  const alt = (cert.subjectaltname ?? '')
    .split(/,\s*/)
    .map((n) => n.replace(/^(DNS|IP Address):/, ''))
    .filter((n) => n.length > 0);
  if (alt.length > 0) return alt;
  const cn = cert.subject?.CN;
  return cn ? [Array.isArray(cn) ? cn.join(', ') : cn] : [];
}

const day = (d: Date): string => d.toISOString().slice(0, 10);
/** The host as a person typed it: the port only when it is not https' own. */
const hostOf = (at: Endpoint): string => (at.port === 443 ? at.host : `${at.host}:${at.port}`);
/** At most three names: a certificate for fifty hosts needs no list in a one-sentence error. */
function listed(names: string[]): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/**
 * The record's sentence for a certificate's flaw, or null when the facts show none. Of several flaws the
 * first of: expired, not valid yet, other host, self-signed, unknown authority (a person fixes them in
 * that order: a renewal, a clock, a name, a real certificate).
 */
export function certificateFlaw(at: Endpoint, facts: CertificateFacts, now = new Date()): PageFailure | null {
  const host = hostOf(at);
  if (now > facts.validTo) return { cause: 'tls_expired', error: `The TLS certificate of ${host} expired on ${day(facts.validTo)}.` };
  if (now < facts.validFrom) return { cause: 'tls_not_yet_valid', error: `The TLS certificate of ${host} is not valid before ${day(facts.validFrom)}.` };
  if (!facts.matchesHost) return { cause: 'tls_wrong_host', error: `The TLS certificate of ${host} is for ${listed(facts.names) || 'no host name'}, not for ${at.host}.` };
  if (facts.selfSigned) return { cause: 'tls_self_signed', error: `The TLS certificate of ${host} is self-signed (strict_ssl is on).` };
  if (!facts.trusted) return { cause: 'tls_untrusted', error: `The TLS certificate of ${host} is not signed by a trusted authority (strict_ssl is on).` };
  return null;
}

/**
 * The record's sentence for a certificate the browser refused: the flaw the facts show, else (the probe
 * failed, or saw nothing wrong because the browser trusts otherwise) the browser's cause without details.
 */
export function certificateFailure(at: Endpoint, facts: CertificateFacts | null, browserSays: TlsCause, browserCode: string, now = new Date()): PageFailure {
  const flaw = facts ? certificateFlaw(at, facts, now) : null;
  if (flaw) return flaw;
  const host = hostOf(at);
  switch (browserSays) {
    case 'tls_expired':
      return { cause: browserSays, error: `The TLS certificate of ${host} has expired.` };
    case 'tls_not_yet_valid':
      return { cause: browserSays, error: `The TLS certificate of ${host} is not valid yet.` };
    case 'tls_wrong_host':
      return { cause: browserSays, error: `The TLS certificate of ${host} is for another host name.` };
    case 'tls_self_signed':
      return { cause: browserSays, error: `The TLS certificate of ${host} is self-signed (strict_ssl is on).` };
    case 'tls_untrusted':
      return { cause: browserSays, error: `The TLS certificate of ${host} is not signed by a trusted authority (strict_ssl is on).` };
    case 'tls':
      return { cause: browserSays, error: `The TLS handshake with ${host} failed (${browserCode}).` };
  }
}
