import type { CdpSession } from './cdp-session.js';

interface ResponseReceived {
  type?: string;
  frameId?: string;
  response?: { status?: number };
}
interface LoadingFailed {
  type?: string;
  frameId?: string;
}

/**
 * Follows the main frame's document responses for the whole capture (CDP Network events), so the
 * response code is that of the document finally shown: after redirects (a 3xx is never final), after a
 * `navigate` step or a click that loads another page. A failed document request (unreachable host,
 * certificate error) resets it to null. The same rule as drivers/playwright/document-response.ts.
 */
export class DocumentResponse {
  private last: number | null = null;

  constructor(cdp: CdpSession) {
    const mainFrame = cdp.targetId;
    cdp.on('Network.responseReceived', (params) => {
      const event = params as ResponseReceived;
      if (event.type !== 'Document' || event.frameId !== mainFrame) return;
      const status = event.response?.status ?? null;
      // 3xx answers are hops of a redirect chain; the document that follows them is the one reported.
      if (status !== null && status >= 300 && status < 400) return;
      this.last = status;
    });
    cdp.on('Network.loadingFailed', (params) => {
      const event = params as LoadingFailed;
      if (event.type === 'Document' && event.frameId === mainFrame) this.last = null;
    });
  }

  get status(): number | null {
    return this.last;
  }
}
