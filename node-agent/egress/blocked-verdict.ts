import { normaliseHost } from '../../core/net/private-allowlist.js';
import type { BlockedRequest } from './job-sessions.js';

/** What a capture's blocked requests mean for its result. */
export interface BlockedVerdict {
  /** the page itself was blocked: the capture ends as `error` with this message */
  pageError: string | null;
  /** subresources (images, fetches, sockets, frames) that were blocked while the page loaded */
  warnings: string[];
}

function explain(block: BlockedRequest): string {
  return `${block.host} resolves to ${block.address}, a ${block.kind} address`;
}

/**
 * The page was blocked when a refused request went to the requested URL's host or to the final URL's
 * host (a redirect into a private network), or when the page got no answer at all while something was
 * refused (an https redirect refused at CONNECT leaves the browser on its own error page). Every other
 * refusal was a subresource: the page is still captured, and says what it could not load.
 */
export function blockedVerdict(requestedUrl: string, finalUrl: string, responseCode: number | null, blocked: readonly BlockedRequest[]): BlockedVerdict {
  if (blocked.length === 0) return { pageError: null, warnings: [] };
  const pageHosts = new Set([requestedUrl, finalUrl].map(hostOf).filter((h): h is string => h !== null));
  const page = blocked.find((b) => pageHosts.has(normaliseHost(b.host))) ?? (responseCode === null ? blocked[0] : undefined);
  const pageError = page ? `Blocked: ${explain(page)}; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)` : null;
  // The page's own host was explained by pageError already (favicon or retries to it are no news).
  const seen = new Set<string>(page ? [`${page.host}:${page.port}`] : []);
  const warnings: string[] = [];
  for (const block of blocked) {
    const key = `${block.host}:${block.port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    warnings.push(`Blocked a request to ${key}: ${explain(block)}; private networks are out of reach of captures (SHOTFARM_ALLOW_PRIVATE_TARGETS)`);
  }
  return { pageError, warnings };
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? normaliseHost(parsed.hostname) : null;
  } catch {
    return null;
  }
}
