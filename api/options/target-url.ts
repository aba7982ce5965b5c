/** The longest URL the spec accepts. */
export const MAX_URL_LENGTH = 4096;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
// `javascript:…`, `data:…`, `mailto:…`: a scheme without `//`. A digit after the colon is a port
// (`localhost:8080/x`), so that is a host, not a scheme.
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * Normalises a URL to capture: http and https only; a missing scheme means https; the WHATWG parser
 * lowercases the host, converts IDN to punycode, percent-encodes and gives a bare host its trailing slash.
 * Returns the normalised URL, or the reason it is refused.
 */
export function normaliseTargetUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  const raw = input.trim();
  if (raw.length === 0) return { ok: false, message: 'must not be empty' };
  if (input.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` };
  if (CONTROL.test(raw)) return { ok: false, message: 'must not contain control characters' };
  let candidate = raw;
  if (raw.startsWith('//')) candidate = `https:${raw}`;
  else if (!HAS_SCHEME.test(raw)) {
    if (OTHER_SCHEME.test(raw)) return { ok: false, message: 'must use http or https' };
    candidate = `https://${raw}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, message: 'must be a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (url.hostname === '') return { ok: false, message: 'must have a host' };
  if (url.href.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters once normalised` };
  return { ok: true, url: url.href };
}
