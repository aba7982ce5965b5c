import type { Page, Response } from 'playwright-core';

/**
 * Follows the main frame's document responses for the whole capture, so `responseCode` is the status
 * of the document finally shown: after redirects (a 3xx is never final), after a `navigate` step or a
 * click that loads another page. A failed document request (unreachable host, certificate error)
 * resets it to null: the page shown could not be reached.
 */
export class DocumentResponse {
  private last: Response | null = null;

  constructor(page: Page) {
    page.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      const status = response.status();
      // 3xx answers are hops of a redirect chain; the document that follows them is the one reported.
      if (status >= 300 && status < 400) return;
      this.last = response;
    });
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.last = null;
    });
  }

  get status(): number | null {
    return this.last?.status() ?? null;
  }
}
