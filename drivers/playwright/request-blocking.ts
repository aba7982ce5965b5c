import type { Page, Route } from 'playwright-core';
import type { RequestBlocker } from '../shared/block-lists/request-blocker.js';

/**
 * Routes every request of `page` through the capture's blocker before it is sent: page.route works on
 * Chromium (CDP) and Firefox (BiDi) alike. The page's URL (the spec's,
 * until the first navigation commits) tells first from third parties. A blocked request fails as "blocked by client", as an ad
 * blocker's does; the others go on to the next handler (the POST navigation's, open-page.ts) or out.
 */
export async function routeThroughBlocker(page: Page, blocker: RequestBlocker, specUrl: string): Promise<void> {
  await page.route('**/*', (route: Route) => {
    const request = route.request();
    let mainFrame = false;
    try {
      const frame = request.frame();
      mainFrame = request.isNavigationRequest() && frame.parentFrame() === null;
    } catch {
      // a service worker's request has no frame: not the page's own navigation
    }
    const category = blocker.judge({ url: request.url(), resourceType: request.resourceType(), mainFrame, pageUrl: /^https?:/i.test(page.url()) ? page.url() : specUrl });
    return (category !== null ? route.abort('blockedbyclient') : route.fallback()).catch(() => undefined);
  });
}
