import type { RequestBlocker } from '../shared/block-lists/request-blocker.js';
import type { CdpSession } from './cdp-session.js';
import { SOURCE_DOCUMENT_HEADERS, SOURCE_DOCUMENT_URL } from '../source/source-document.js';

const SOURCE_ORIGIN = new URL(SOURCE_DOCUMENT_URL).origin;
const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

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
 * - a source (source_html / source_markdown): the navigation to the reserved source URL is answered with
 *   the document under its sandbox policy, as the Playwright driver's page.route does (open-page.ts), and
 *   any other request to the reserved host fails there, never reaching a resolver.
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
    /** the source's HTML document, answered at SOURCE_DOCUMENT_URL; null for a web page */
    private readonly sourceHtml: string | null,
  ) {
    this.postPending = postData !== null;
  }

  /** Starts intercepting when the spec needs it; returns null when it does not. */
  static async start(cdp: CdpSession, url: string, postData: string | null, blocker: RequestBlocker | null, sourceHtml: string | null = null): Promise<RequestInterceptor | null> {
    if (postData === null && blocker === null && sourceHtml === null) return null;
    const interceptor = new RequestInterceptor(cdp, url, postData, blocker, sourceHtml);
    cdp.on('Fetch.requestPaused', (params) => void interceptor.onPaused(params as unknown as RequestPaused));
    // Fetch's URL patterns treat `*` and `?` as wildcards and `\` as the escape character: escaped, the URL matches only itself.
    const urlPatterns = blocker ? ['*'] : [...(postData !== null ? [url.replace(/[\\*?]/g, (character) => `\\${character}`)] : []), ...(sourceHtml !== null ? [`${SOURCE_ORIGIN}/*`] : [])];
    await cdp.send('Fetch.enable', { patterns: urlPatterns.map((urlPattern) => ({ urlPattern, requestStage: 'Request' })) });
    return interceptor;
  }

  /** A request to the reserved source host: the document for its navigation, a failure for anything else. */
  private async answerSource(paused: RequestPaused, html: string): Promise<void> {
    if (paused.resourceType === 'Document' && paused.request.url.split('#')[0] === SOURCE_DOCUMENT_URL) {
      await this.cdp.send('Fetch.fulfillRequest', {
        requestId: paused.requestId,
        responseCode: 200,
        responseHeaders: Object.entries(SOURCE_DOCUMENT_HEADERS).map(([name, value]) => ({ name, value })),
        body: Buffer.from(html, 'utf8').toString('base64'),
      });
      return;
    }
    await this.cdp.send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'BlockedByClient' });
  }

  private async onPaused(paused: RequestPaused): Promise<void> {
    const { requestId, resourceType, request } = paused;
    try {
      if (this.sourceHtml !== null && originOf(request.url) === SOURCE_ORIGIN) return await this.answerSource(paused, this.sourceHtml);
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
