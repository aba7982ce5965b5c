import { normaliseHost } from '../../core/net/private-allowlist.js';
import type { PageFailure } from '../page-failure.js';
import type { BlockedRequest } from './job-sessions.js';
import { unreachableSentence, type UnreachableRequest } from './unreachable-cause.js';

/** What a capture's blocked requests mean for its result. */
export interface BlockedVerdict {
  /** the page itself was blocked or could not be delivered: the capture ends as `error`, so */
  pageFailure: PageFailure | null;
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
export function blockedVerdict(
  requestedUrl: string,
  finalUrl: string,
  responseCode: number | null,
  blocked: readonly BlockedRequest[],
  unreachable: readonly UnreachableRequest[] = [],
): BlockedVerdict {
  const pageHosts = new Set([requestedUrl, finalUrl].map(hostOf).filter((h): h is string => h !== null));
  const unreachableError = unreachablePageError(pageHosts, responseCode, unreachable);
  if (blocked.length === 0) return { pageFailure: unreachableError, warnings: [] };
  const page = blocked.find((b) => pageHosts.has(normaliseHost(b.host))) ?? (responseCode === null && unreachableError === null ? blocked[0] : undefined);
  const pageFailure: PageFailure | null = page
    ? { cause: 'blocked', error: `Blocked: ${explain(page)}; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)` }
    : unreachableError;
  // The page's own host was explained by pageFailure already (favicon or retries to it are no news).
  const seen = new Set<string>(page ? [`${page.host}:${page.port}`] : []);
  const warnings: string[] = [];
  for (const block of blocked) {
    const key = `${block.host}:${block.port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    warnings.push(`Blocked a request to ${key}: ${explain(block)}; private networks are out of reach of captures (SHOTFARM_ALLOW_PRIVATE_TARGETS)`);
  }
  return { pageFailure, warnings };
}

/**
 * A page that got no answer because the guard could not deliver its request (no such host, refused,
 * reset, timed out) ends with one plain sentence naming the host and the cause, instead of the browser's
 * own error code: the guard, not the browser, knows why (the browser only saw its proxy fail).
 */
function unreachablePageError(pageHosts: Set<string>, responseCode: number | null, unreachable: readonly UnreachableRequest[]): PageFailure | null {
  if (responseCode !== null) return null;
  const page = unreachable.find((u) => pageHosts.has(normaliseHost(u.host)));
  return page ? { cause: page.cause, error: unreachableSentence(page) } : null;
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? normaliseHost(parsed.hostname) : null;
  } catch {
    return null;
  }
}
