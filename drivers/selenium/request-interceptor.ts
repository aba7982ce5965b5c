import type { AdFilterMatches } from '../shared/ad-filter-matches.js';
import { isBlocked } from './ad-blocker.js';
import type { CdpSession } from './cdp-session.js';

interface RequestPaused {
  requestId: string;
  resourceType: string;
  frameId?: string;
  request: { url: string; headers: Record<string, string> };
}

/**
 * CDP Fetch interception for the two things a WebDriver session cannot do on its own:
 * - the first navigation as a POST of the spec's url-encoded body (the request is continued with the
 *   method, body and content type changed, as the Playwright driver does with page.route),
 * - hide_ads: requests the filter engine matches fail as "blocked by client" before they are sent.
 * Only requests that match a pattern pause, so without hide_ads nothing but the page URL is held.
 */
export class RequestInterceptor {
  private postPending: boolean;

  private constructor(
    private readonly cdp: CdpSession,
    private readonly url: string,
    private readonly postData: string | null,
    /** hide_ads' filters and its account of what they matched; null without hide_ads */
    private readonly ads: AdFilterMatches | null,
  ) {
    this.postPending = postData !== null;
  }

  /** Starts intercepting when the spec needs it; returns null when it does not. */
  static async start(cdp: CdpSession, url: string, postData: string | null, ads: AdFilterMatches | null): Promise<RequestInterceptor | null> {
    if (postData === null && ads === null) return null;
    const interceptor = new RequestInterceptor(cdp, url, postData, ads);
    cdp.on('Fetch.requestPaused', (params) => void interceptor.onPaused(params as unknown as RequestPaused));
    // Fetch's URL patterns treat `*` and `?` as wildcards and `\` as the escape character: escaped, the URL matches only itself.
    const urlPattern = ads ? '*' : url.replace(/[\\*?]/g, (character) => `\\${character}`);
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern, requestStage: 'Request' }] });
    return interceptor;
  }

  private async onPaused(paused: RequestPaused): Promise<void> {
    const { requestId, resourceType, request } = paused;
    try {
      if (this.postPending && resourceType === 'Document' && paused.frameId === this.cdp.targetId && request.url === this.url) {
        this.postPending = false;
        const headers = { ...request.headers, 'Content-Type': 'application/x-www-form-urlencoded' };
        await this.cdp.send('Fetch.continueRequest', {
          requestId,
          method: 'POST',
          postData: Buffer.from(this.postData ?? '').toString('base64'),
          headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        });
        return;
      }
      if (this.ads && isBlocked(this.ads.engine, request.url, resourceType, this.url, paused.frameId === this.cdp.targetId)) {
        this.ads.requestBlocked();
        await this.cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
        return;
      }
      await this.cdp.send('Fetch.continueRequest', { requestId });
    } catch {
      // The page or the session went away while the request was paused: nothing is left to continue.
    }
  }
}
