import type { RequestBlocker } from '../shared/block-lists/request-blocker.js';
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
 * - blocking (hide_ads, block_chats/_social/_trackers, block_resources, block_urls): requests the capture's
 *   blocker judges blocked fail as "blocked by client" before they are sent.
 * Only requests that match a pattern pause, so without blocking nothing but the page URL is held.
 */
export class RequestInterceptor {
  private postPending: boolean;

  private constructor(
    private readonly cdp: CdpSession,
    private readonly url: string,
    private readonly postData: string | null,
    /** the capture's blocker; null when it blocks nothing */
    private readonly blocker: RequestBlocker | null,
  ) {
    this.postPending = postData !== null;
  }

  /** Starts intercepting when the spec needs it; returns null when it does not. */
  static async start(cdp: CdpSession, url: string, postData: string | null, blocker: RequestBlocker | null): Promise<RequestInterceptor | null> {
    if (postData === null && blocker === null) return null;
    const interceptor = new RequestInterceptor(cdp, url, postData, blocker);
    cdp.on('Fetch.requestPaused', (params) => void interceptor.onPaused(params as unknown as RequestPaused));
    // Fetch's URL patterns treat `*` and `?` as wildcards and `\` as the escape character: escaped, the URL matches only itself.
    const urlPattern = blocker ? '*' : url.replace(/[\\*?]/g, (character) => `\\${character}`);
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
      const mainFrame = resourceType === 'Document' && paused.frameId === this.cdp.targetId;
      if (this.blocker?.judge({ url: request.url, resourceType, mainFrame, pageUrl: this.url })) {
        await this.cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
        return;
      }
      await this.cdp.send('Fetch.continueRequest', { requestId });
    } catch {
      // The page or the session went away while the request was paused: nothing is left to continue.
    }
  }
}
