import { domainToASCII } from 'node:url';
import { normaliseTargetUrl } from '../options/target-url.js';

/**
 * What a crawl may visit: http(s) pages whose host is the crawl's domain or a subdomain of it, each
 * URL counted once in its normalised form without a fragment (`/a#x` and `/a` are one page).
 */

/** A DNS label: letters, digits and inner hyphens, at most 63 characters (RFC 1035). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** The longest DNS name (RFC 1035). */
const MAX_HOSTNAME_LENGTH = 253;

/** A crawl domain in its ASCII (punycode) lowercase form, or null when it is not a host name. */
export function normaliseDomain(input: string): string | null {
  const name = input.trim().toLowerCase();
  // domainToASCII would quietly cut `example.com/x` to `example.com`: refuse anything but a bare name
  // (letters of any script, for internationalised names, digits, dots and hyphens).
  if (/[^\p{L}\p{N}.-]/u.test(name)) return null;
  const ascii = domainToASCII(name);
  if (ascii === '' || ascii.length > MAX_HOSTNAME_LENGTH || !HOSTNAME.test(ascii)) return null;
  return ascii;
}

/** Whether a host is the domain itself or one of its subdomains (`sub.example.com`, not `badexample.com`). */
export function isInDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** A link as the crawl keys it: normalised like a create `url`, fragment dropped; null when not http(s). */
export function crawlKey(link: string): { url: string; host: string } | null {
  const normalised = normaliseTargetUrl(link);
  if (!normalised.ok) return null;
  const url = new URL(normalised.url);
  url.hash = '';
  return { url: url.href, host: url.hostname };
}

/** The distinct links of a page that belong to the crawl, in page order. */
export function linksInScope(links: readonly string[], domain: string): { url: string; host: string }[] {
  const seen = new Map<string, { url: string; host: string }>();
  for (const link of links) {
    const key = crawlKey(link);
    if (key && isInDomain(key.host, domain) && !seen.has(key.url)) seen.set(key.url, key);
  }
  return [...seen.values()];
}
