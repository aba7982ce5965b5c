import type { Request as FilterRequest } from '@ghostery/adblocker';
import { PlaywrightBlocker } from '@ghostery/adblocker-playwright';
import type { Page, Request } from 'playwright-core';
import { AdFilterMatches } from '../shared/ad-filter-matches.js';
import { ParsedFilterLists } from '../shared/filter-list-path.js';

/**
 * Ad and tracker blocking with Ghostery's engine and the filter lists of SHOTFARM_AD_FILTER_LISTS.
 * The engine is parsed once per process and set of lists (parsing is the expensive part) and shared by
 * every page of every driver instance.
 * Blocking runs through page.route, so it works on Chromium (CDP) and Firefox (BiDi) alike:
 * network filters abort requests before they are sent; cosmetic filters hide their empty containers.
 */
export class AdBlocker {
  /** The parsed engines of this process; each counts its blocks for the page they were in. */
  private static readonly engines = new ParsedFilterLists((lists) => {
    const blocker = PlaywrightBlocker.parse(lists, { loadNetworkFilters: true, loadCosmeticFilters: true, enableCompression: false });
    blocker.on('request-blocked', AdBlocker.countBlock);
    blocker.on('request-redirected', AdBlocker.countBlock);
    return blocker;
  });
  /** The account of each page blocking runs in: the engine reports its blocks for all pages at once. */
  private static readonly matchesOfPage = new WeakMap<Page, AdFilterMatches>();

  constructor(private readonly filterListFiles: readonly string[]) {}

  /** Counts a block for the page that made the request (the wrapper keeps Playwright's request on the engine's). */
  private static countBlock(this: void, request: FilterRequest): void {
    const details = request._originalRequestDetails as Request | undefined;
    try {
      const page = details?.frame().page();
      if (page) AdBlocker.matchesOfPage.get(page)?.requestBlocked();
    } catch {
      // a service worker's request has no frame, hence no page to count for
    }
  }

  /** Starts blocking in `page`, and returns the account of what the filters match in it; call before the first navigation. */
  async enable(page: Page): Promise<AdFilterMatches> {
    const blocker = await AdBlocker.engines.of(this.filterListFiles);
    const matches = new AdFilterMatches(blocker);
    AdBlocker.matchesOfPage.set(page, matches);
    // The wrapper is typed against the `playwright` package, which re-exports playwright-core's Page.
    await blocker.enableBlockingInPage(page as Parameters<PlaywrightBlocker['enableBlockingInPage']>[0]);
    return matches;
  }
}
